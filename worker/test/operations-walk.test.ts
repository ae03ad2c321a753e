import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { AnyOperation } from '../src/api/operation';
import { OPERATIONS } from '../src/wiring/operations';
import { API_SCOPES, type ApiScope } from '../src/contracts/developer';
import { capsuleBy } from './helpers/capsules';
import { contactsOf } from './helpers/contacts';
import { memorialBy, postOn } from './helpers/memorials';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';
import { createMessageFor } from './helpers/messages';
import { guardianOf } from './helpers/guardian';
import { keyBundle } from './helpers/e2ee';
import { giveVaultItem } from './helpers/vault';
import { endpointFor } from './helpers/webhooks';
import { toBase64 } from '../src/lib/encoding';
import { hashSecret, newSecretToken } from '../src/lib/secrets';
import { relyingParty } from '../src/domains/passkeys/relying-party';
import { SoftAuthenticator } from './helpers/soft-authenticator';
import { uploadSample } from './helpers/voice';
import { floatWav } from '../src/contracts/wav';

/**
 * A walk over every declared operation (worker/src/wiring/operations.ts), so a new operation is held to
 * the same promises the moment it is declared:
 * - an id of the owner's object, asked for by an outsider, is 404 — and so is a malformed id;
 * - an API key without the operation's scope (or any key, on a session-only operation) is 403;
 * - a malformed body is a 4xx with a `detail`;
 * - what the owner gets back validates against the declared output schema.
 * An operation with a path parameter needs an entry in OWNED (how to make the owner an object of that
 * kind): the walk fails for one that has none.
 */
type Persona = { id: string; token: string; email: string; password: string };

const heldMessage = async (owner: Persona, recipient: Persona) =>
  (await createMessageFor(owner.token, { recipient_user_id: recipient.id, rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }] })).id;

/** A message `sender` wrote to `owner` and released at once: `owner` owns its read marker. */
async function receivedMessage(owner: Persona, sender: Persona) {
  const id = (await createMessageFor(sender.token, { recipient_user_id: owner.id, deliver_at: '2099-01-01' })).id;
  expect((await api('POST', `/api/messages/deliver/${id}`, { token: sender.token })).status).toBe(200);
  return id;
}

async function uploadedAttachment(owner: Persona, recipient: Persona) {
  const form = new FormData();
  form.append('file', new Blob([crypto.getRandomValues(new Uint8Array(64))]), 'walk.bin');
  form.append('message_id', await heldMessage(owner, recipient));
  form.append('iv', toBase64(crypto.getRandomValues(new Uint8Array(12))));
  const res = await api('POST', '/api/upload/encrypted-file', { token: owner.token, body: form });
  expect(res.status).toBe(201);
  return res.data.id as string;
}

async function walkPersona(owner: Persona) {
  const res = await api('POST', '/api/ai/train-profile', { token: owner.token, json: { persona_text: 'walk', behavior: 'neutral', qa: [] } });
  expect(res.status).toBe(200);
  return owner.id;
}

/** A vault item given to the recipient (who needs keys for it). */
async function vaultItem(owner: Persona, recipient: Persona) {
  if (!(await env.DB.prepare('SELECT 1 FROM user_keys WHERE user_id = ?').bind(recipient.id).first())) await withKeys(recipient);
  return (await giveVaultItem(owner, recipient, { condition_type: 'death_flag' })).id;
}

/** An audio item, with captions, of a capsule not yet released: only its author may play it. */
async function capsuleMediaItemOf(owner: Persona) {
  const capsule = await capsuleBy(owner, { release_at: '2099-01-01' });
  const form = new FormData();
  form.append('file', new Blob([floatWav(new Float32Array(8000), 8000)]), 'walk.wav');
  form.append('type', 'audio');
  form.append('captions', 'WEBVTT\n');
  const res = await api('POST', `/api/capsule/${capsule.id}/media`, { token: owner.token, body: form });
  return (res.data.content[1].data as string).split('/').pop()!;
}

/** A chat import (queued: the walk runs no job). */
async function chatImportOf(owner: Persona) {
  const form = new FormData();
  form.append('file', new Blob([JSON.stringify([{ sender: 'Me', text: 'walk', timestamp: null }])]), 'chat.json');
  return (await api('POST', '/api/imports/chat-history', { token: owner.token, body: form })).data.job_id as string;
}

/** The owner's canary (a Free account holds one): the one they have, or a new one. */
async function ownCanary(owner: Persona): Promise<string> {
  const list = await api('GET', '/api/canary/list', { token: owner.token });
  return (list.data as { id: string }[])[0]?.id ?? (await createCanaryFor(owner.token)).id;
}

const OWNED: Record<string, (owner: Persona, recipient: Persona) => Promise<string>> = {
  getChatImport: chatImportOf,
  chooseChatImportSender: chatImportOf,
  deleteChatImport: chatImportOf,
  deleteVoicePrompt: async (owner) => {
    const form = new FormData();
    form.append('prompt', 'walk');
    form.append('response_text', 'walk');
    form.append('locked', 'false');
    return (await api('POST', '/api/voice/prompt', { token: owner.token, body: form })).data.id;
  },
  // A persona is addressed by its owner's id: the owner may talk to it and retire it; an outsider gets 404.
  personaReply: (owner) => walkPersona(owner),
  transcribePersonaQuestion: (owner) => walkPersona(owner),
  retirePersona: (owner) => walkPersona(owner),
  deleteVoiceSample: async (owner) => (await uploadSample(owner.token, floatWav(new Float32Array(8000), 8000))).data.id,
  deleteCanary: (owner) => ownCanary(owner),
  canaryWarnings: (owner) => ownCanary(owner),
  updateCanary: (owner) => ownCanary(owner),
  pauseCanary: (owner) => ownCanary(owner),
  resumeCanary: (owner) => ownCanary(owner),
  getMessage: heldMessage,
  // With a recording, so an outsider's 404 can only come from the ownership check.
  getMessageAudio: async (owner, recipient) =>
    (
      await createMessageFor(owner.token, {
        recipient_user_id: recipient.id,
        rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
        audio_base64: toBase64(new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...new Uint8Array(512)])),
      })
    ).id,
  cancelMessage: heldMessage,
  deliverMessage: heldMessage,
  listAttachments: heldMessage,
  messageDeliveryLog: heldMessage,
  // The recipient's side: `owner` is the one a released message was left for.
  markMessageRead: receivedMessage,
  getAttachmentCiphertext: uploadedAttachment,
  downloadDecryptedFile: uploadedAttachment,
  getPublicKey: async (owner) => owner.id,
  revokeApiKey: async (owner) => (await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'walk', scopes: ['read:canary'] } })).data.id,
  deleteWebhook: async (owner) => (await endpointFor(owner, 'walk')).id,
  sendWebhookTestEvent: async (owner) => (await endpointFor(owner, 'walk')).id,
  listWebhookAttempts: async (owner) => (await endpointFor(owner, 'walk')).id,
  revokeGuardian: async (owner) =>
    (await api('POST', '/api/guardian/assign', { token: owner.token, json: { email: `walk-${crypto.randomUUID()}@example.com`, consent: true } })).data.id,
  // The guardian's side: `owner` guards `recipient`, and addresses that guardianship.
  answerAsGuardian: (owner, recipient) => guardianOf(recipient, owner),
  resignAsGuardian: (owner, recipient) => guardianOf(recipient, owner),
  removeContact: async (owner) =>
    (await api('POST', '/api/contacts', { token: owner.token, json: { email: `walk-${crypto.randomUUID()}@example.com` } })).data.id,
  // A user id: the recipient is the owner's accepted contact.
  contactReachability: async (owner, recipient) => {
    await contactsOf(owner, recipient);
    return recipient.id;
  },
  getVaultItem: vaultItem,
  deleteVaultItem: vaultItem,
  claimVaultItem: claimToken,
  getCheckInLink: checkInLinkToken,
  deletePasskey: passkeyOf,
  getRehearsal: rehearsalOf,
  redeemCheckInLink: checkInLinkToken,
  vaultClaimQrCode: claimToken,
  setConsent: async () => 'messages',
  playSandboxPortal: async () => 'cancel',
  // A capsule released later: only its author reads it (a public read with no outsider is the walk's output check).
  viewCapsule: async (owner) => (await capsuleBy(owner, { release_at: '2099-01-01' })).id,
  editCapsule: async (owner) => (await capsuleBy(owner, { release_at: '2099-01-01' })).id,
  deleteCapsule: async (owner) => (await capsuleBy(owner)).id,
  addCapsuleMedia: async (owner) => (await capsuleBy(owner, { release_at: '2099-01-01' })).id,
  // Two path parameters: the walk puts the same id in both, and an outsider is refused either way.
  deleteCapsuleMedia: async (owner) => (await capsuleBy(owner, { release_at: '2099-01-01' })).id,
  getCapsuleMedia: capsuleMediaItemOf,
  getCapsuleCaptions: capsuleMediaItemOf,
  publishCapsule: async (owner) => (await capsuleBy(owner)).id,
  getMemorial: async (owner) => (await memorialBy(owner)).id,
  postOnMemorial: async (owner) => (await memorialBy(owner)).id,
  lightCandle: async (owner) => (await postOn((await memorialBy(owner)).id, owner)).id,
  // Reports come from others: the owner's object is reported by the recipient (and anyone signed in may).
  reportCapsule: async (owner) => (await capsuleBy(owner)).id,
  reportPost: async (owner) => (await postOn((await memorialBy(owner)).id, owner)).id,
  deleteMemorialPost: async (owner) => (await postOn((await memorialBy(owner)).id, owner)).id,
  // Moderators decide (none of the walk's personas is one): the owner's capsule or post, hidden or not, is 404 to others.
  decideCapsule: async (owner) => (await capsuleBy(owner)).id,
  decidePost: async (owner) => (await postOn((await memorialBy(owner)).id, owner)).id,
  downloadLegacyCopy: (owner) => legacyCopyFor(owner),
  readSandboxSession: sandboxCheckout,
  playSandboxCheckout: sandboxCheckout,
};

/** A sandbox checkout session the owner opened (the local provider). */
async function sandboxCheckout(owner: Persona) {
  const res = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'plus', cycle: 'annual' } });
  expect(res.status).toBe(201);
  return res.data.id as string;
}

/**
 * A copy left to `owner` by an account already erased (the rows and bytes the dead-man path leaves;
 * worker/test/legacy-copies.test.ts walks that path itself).
 */
async function legacyCopyFor(owner: Persona) {
  const [copyId, deletionId, now] = [crypto.randomUUID(), crypto.randomUUID(), Date.now()];
  const key = `legacy/${deletionId}/${owner.id}.zip`;
  await env.BLOBS.put(key, new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Uint8Array(18)]));
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO scheduled_deletions (id, user_id, type, reason, deletion_date, status, created_at, done_at) VALUES (?1, ?2, 'account', 'deadman', ?3, 'done', ?3, ?3)",
    ).bind(deletionId, crypto.randomUUID(), now),
    env.DB.prepare(
      "INSERT INTO legacy_copies (id, recipient_user_id, deletion_id, from_label, parts, status, r2_key, size, queued_at, created_at, ready_at) VALUES (?1, ?2, ?3, 'gone@example.com', '[\"account\"]', 'ready', ?4, 22, ?5, ?5, ?5)",
    ).bind(copyId, owner.id, deletionId, key, now),
  ]);
  return copyId;
}

/** A vault item's claim token (public operations addressed by it have no outsider; the output walk needs one). */
async function claimToken(owner: Persona, recipient: Persona) {
  const id = await vaultItem(owner, recipient);
  return (await env.DB.prepare('SELECT claim_token FROM vault_items WHERE id = ?').bind(id).first<{ claim_token: string }>())!.claim_token;
}

/** A passkey of the owner's, made through the API with an authenticator in software. */
async function passkeyOf(owner: Persona) {
  const rp = relyingParty(env);
  const authenticator = new SoftAuthenticator({ origin: rp.origin, rpId: rp.id });
  const start = await api('POST', '/api/passkeys/registration-options', { token: owner.token });
  const response = await authenticator.create(start.data.options);
  await api('POST', '/api/passkeys', { token: owner.token, json: { challenge_id: start.data.challenge_id, response, name: 'Walk' } });
  return authenticator.id;
}

/** A rehearsal of the owner's (one per 10 minutes: an earlier one is reused). */
async function rehearsalOf(owner: Persona) {
  const earlier = await env.DB.prepare('SELECT id FROM rehearsals WHERE user_id = ? LIMIT 1').bind(owner.id).first<{ id: string }>();
  if (earlier) return earlier.id;
  const res = await api('POST', '/api/rehearsal', { token: owner.token, json: {} });
  if (res.status !== 201) throw new Error(`rehearsal failed: ${res.status} ${res.text}`);
  return res.data.id as string;
}

/** A check-in link of the owner's canary, as a sent warning carries it (a public operation addressed by its token, like a claim). */
async function checkInLinkToken(owner: Persona) {
  const canaryId = await ownCanary(owner);
  const token = newSecretToken();
  await env.DB.prepare(
    "INSERT INTO check_in_links (token_hash, user_id, canary_id, notice_id, created_at, expires_at) VALUES (?1, ?2, ?3, 'walk', ?4, ?4 + 86400000)",
  )
    .bind(await hashSecret(token), owner.id, canaryId, Date.now())
    .run();
  return token;
}

/** Objects every signed-in person may read by design: a public key is what others encrypt to. */
const SHARED_READS = new Set(['getPublicKey']);

/**
 * Path parameters that name a kind, not an owned object: the consent kinds are the same five words for
 * everyone, and each person's call changes their own consent; a sandbox portal action acts on the caller's own
 * subscription (worker/test/billing-portal.test.ts). There is no outsider: only the malformed
 * (unknown) kind's 404 applies (worker/test/legal-consent.test.ts shows one user's change never touches another's).
 */
const KIND_PARAMS = new Set(['setConsent', 'playSandboxPortal']);

/**
 * Community objects every signed-in person may act on by design: anyone may post on a memorial,
 * light a candle on a post and report a public capsule or a post. Only the malformed id's 404 applies.
 */
const OPEN_TO_SIGNED_IN = new Set(['postOnMemorial', 'lightCandle', 'reportCapsule', 'reportPost']);

/** The owner's key bundle, so key reads have something to answer. */
async function withKeys(owner: Persona) {
  expect((await api('POST', '/api/trpc/keys.create', { token: owner.token, json: keyBundle() })).status).toBe(200);
}

/** A read whose query names someone: what the owner's call asks about. */
const QUERY: Record<string, (owner: Persona, recipient: Persona) => Promise<string>> = {
  getVaultSealingKeys: async (_owner, recipient) => {
    await withKeys(recipient);
    return `?recipient_user_id=${recipient.id}`;
  },
};

const rest = OPERATIONS.filter((op): op is AnyOperation & { path: string } => op.path !== null);
// A public operation addressed by a credential in its path (POST /api/ping/{token}) has no outsider.
const withParams = rest.filter((op) => op.input.params && op.access.kind !== 'public');
const pathOf = (op: { path: string }, id: string) => op.path.replace(/\{[^}]+\}/g, id);
const METHOD = (op: AnyOperation) => op.method.toUpperCase();

async function keyWith(owner: Persona, scopes: readonly ApiScope[]) {
  const res = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: `walk ${scopes.join(' ')}`, scopes } });
  expect(res.status).toBe(201);
  return res.data.key as string;
}

describe('every declared operation', () => {
  it('has a way to make an owned object for each path parameter, and an outsider gets 404 for it (and for a malformed id)', async () => {
    const [owner, recipient, outsider] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    for (const op of withParams) {
      const make = OWNED[op.docs.operationId];
      expect(make, `OWNED has no entry for ${op.docs.operationId} (${op.method} ${op.path})`).toBeDefined();
      const id = await make!(owner, recipient);
      const malformed = await api(METHOD(op), pathOf(op, 'not-an-id'), { token: owner.token, json: op.input.body ? {} : undefined });
      expect(malformed.status, `${op.method} ${op.path} with a malformed id`).toBe(404);
      expect(typeof malformed.data.detail).toBe('string');
      if (SHARED_READS.has(op.docs.operationId) || KIND_PARAMS.has(op.docs.operationId) || OPEN_TO_SIGNED_IN.has(op.docs.operationId)) continue;
      // A multipart upload gets an empty form: ownership is checked before its parts.
      const asOutsider = op.input.multipart
        ? await api(METHOD(op), pathOf(op, id), { token: outsider.token, body: new FormData() })
        : await api(METHOD(op), pathOf(op, id), { token: outsider.token, json: op.input.body ? {} : undefined });
      expect(asOutsider.status, `${op.method} ${op.path} as an outsider`).toBe(404);
      expect(malformed.data).toEqual(asOutsider.data);
    }
  }, 120_000);

  it('refuses an API key without the scope (403), and any key on a session-only operation', async () => {
    const owner = await signedInUser();
    const everything = await keyWith(owner, API_SCOPES);
    const allBut = Object.fromEntries(
      await Promise.all(
        API_SCOPES.map(
          async (s) =>
            [
              s,
              await keyWith(
                owner,
                API_SCOPES.filter((x) => x !== s),
              ),
            ] as const,
        ),
      ),
    );
    for (const op of rest) {
      const id = crypto.randomUUID();
      if (op.access.kind === 'session') {
        const res = await api(METHOD(op), pathOf(op, id), { token: everything, json: op.input.body ? {} : undefined });
        expect(res.status, `${op.method} ${op.path} with a key`).toBe(403);
        expect(typeof res.data.detail).toBe('string');
      } else if (op.access.kind === 'session-or-key') {
        const res = await api(METHOD(op), pathOf(op, id), { token: allBut[op.access.scope]!, json: op.input.body ? {} : undefined });
        expect(res.status, `${op.method} ${op.path} with a key lacking ${op.access.scope}`).toBe(403);
        expect(res.data.detail).toBe(`This API key lacks the scope ${op.access.scope}`);
      }
    }
  }, 120_000);

  it('answers a malformed body with a 4xx and a detail', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    for (const op of rest.filter((o) => o.input.body || o.input.multipart)) {
      const id = op.input.params ? await OWNED[op.docs.operationId]!(owner, recipient) : '';
      for (const body of ['{"unclosed": ', '[1, 2, 3]', '"just a string"', '{"unexpected": {"deeply": [null]}}']) {
        // Unknown keys are dropped: a body whose every field is optional reads them as `{}` (canary create, check-in).
        if (body.startsWith('{"unexpected"') && op.input.body?.safeParse({}).success) continue;
        const res = await api(METHOD(op), pathOf(op, id), { token: owner.token, body, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${op.method} ${op.path} with ${body}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${op.method} ${op.path} with ${body}`).toBeLessThan(500);
        expect(res.data.detail, `${op.method} ${op.path} with ${body}`).toBeDefined();
      }
    }
  }, 120_000);

  it('answers the owner with what its output schema declares', async () => {
    // The owner is one of the tests' community moderators (worker/vitest.config.mts), so the review queue answers too.
    const [owner, recipient] = await Promise.all([signedInUser({ email: 'walk.moderator@example.com' }), signedInUser()]);
    await withKeys(owner);
    for (const op of rest.filter((o) => o.method === 'get' && o.output && (!o.exists || o.exists(env as never)))) {
      const id = op.input.params ? await OWNED[op.docs.operationId]!(owner, recipient) : '';
      const query = (await QUERY[op.docs.operationId]?.(owner, recipient)) ?? '';
      const res = await api('GET', `${pathOf(op, id)}${query}`, { token: owner.token });
      expect(res.status, `GET ${op.path}`).toBe(op.status ?? 200);
      const parsed = op.output!.safeParse(res.data);
      expect(parsed.success ? [] : parsed.error.issues, `GET ${op.path}`).toEqual([]);
    }
  }, 120_000);
});
