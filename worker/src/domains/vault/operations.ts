import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation, type OperationContext } from '../../api/operation';
import {
  ZVaultAsset,
  ZVaultAssignInput,
  ZVaultClaimView,
  ZVaultCreateFields,
  ZVaultItemView,
  ZClaimTokenParam,
  ZVaultSealingKeys,
  ZVaultSealingKeysQuery,
  VAULT_CREATE_MAX_BODY_BYTES,
} from '../../contracts/vault';
import { AppError } from '../../lib/errors';
import { parseOrThrow } from '../../lib/validation';
import { singleFilePart, textField } from '../../lib/multipart';
import { assignVaultItem } from './assign-item';
import { claimView } from './claim';
import { createVaultAsset } from './create-asset';
import { deleteVaultItem } from './delete-item';
import { qrSvg } from './qr-code';
import { getSealingKeys } from './sealing-keys';
import { claimLinkByToken, claimNotFound, getVaultItem, listVaultItems, vaultItemNotFound } from './read-vault';

/**
 * /api/vault/* (docs/api.md: POST /vault/create multipart, POST /vault/assign; the design in
 * docs/decisions/vault.md). Create and assign are open to API keys with `create:vault`; the rest is the
 * signed-in owner's. The claim lookup is public: it is what the QR code opens.
 */
const tags = ['Vault'];
const writeAccess = { kind: 'session-or-key', scope: 'create:vault' } as const;
const notYours = { description: 'Vault item not found (or not yours)' };

/** A sandbox key's vault item would be as real as a live one (a file a person receives): refused. */
function refuseSandbox({ principal }: OperationContext<typeof writeAccess>) {
  if (principal.via === 'key' && principal.sandbox)
    throw new AppError('FORBIDDEN', 'Sandbox keys cannot store vault files or give them to people: use a live key (afw_live_…)');
}

/** The multipart body: one file part (the ciphertext) and the text fields. */
async function readCreate(form: FormData) {
  const file = await singleFilePart(form, 'send one file per vault item');
  const fields = parseOrThrow(
    ZVaultCreateFields,
    {
      consent: textField(form, 'consent'),
      legal_note: textField(form, 'legal_note'),
      iv: textField(form, 'iv'),
      envelope: textField(form, 'envelope'),
      name: textField(form, 'name'),
    },
    'body',
  );
  return { fields, file };
}

export const vaultOperations = [
  defineOperation({
    method: 'get',
    path: '/api/vault/sealing-keys',
    trpc: false,
    access: writeAccess,
    input: { query: ZVaultSealingKeysQuery },
    output: ZVaultSealingKeys,
    docs: {
      operationId: 'getVaultSealingKeys',
      summary: 'The public keys to seal a vault file for',
      description:
        'Your public key and the recipient’s (P-256 JWKs), each with the user id that is its `kid` in the v1 envelope: seal the file key for both, then POST /api/vault/create and POST /api/vault/assign. ' +
        'The whole flow for an API client is in docs/security/e2ee.md ("Vault files from an API client").',
      tags,
      responses: {
        200: { description: 'Both public keys' },
        403: { description: 'A sandbox key, or a key without create:vault' },
        404: { description: 'No user has recipient_user_id, or they have no encryption keys yet' },
        409: { description: 'You have no encryption keys yet (sign in to the app once)' },
      },
    },
    run: (ctx, { recipient_user_id }) => {
      refuseSandbox(ctx);
      return getSealingKeys(ctx.services, ctx.principal.user.id, recipient_user_id);
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/vault/create',
    trpc: false,
    access: writeAccess,
    input: {
      multipart: {
        schema: ZVaultCreateFields.extend({ file: z.file().describe('The ciphertext (one file part)') }),
        maxBytes: VAULT_CREATE_MAX_BODY_BYTES,
        read: readCreate,
      },
    },
    output: ZVaultAsset,
    status: 201,
    docs: {
      operationId: 'createVaultFile',
      summary: 'Store an encrypted file in the vault',
      description:
        'Multipart: `file` (AES-GCM-256 ciphertext made in the client, 12-byte IV), `iv`, `envelope` (a v1 envelope sealing `{text: "", attachments: [{iv, key, name, type, size}]}` for you and the recipient), `consent` (true), `legal_note?`, `name?`. ' +
        "16 bytes to 25 MiB per file (413 past it, before the body is read), within the plan's storage (403 past it). Then give it to someone with POST /api/vault/assign.",
      tags,
      responses: {
        201: { description: 'Stored; `asset_id` is what assign takes' },
        403: { description: "Over the plan's storage (upgrade for more), a sandbox key, or your messages consent is withdrawn" },
        413: { description: 'Over 25 MiB' },
        422: { description: 'consent is not true, no file, a bad iv, or an envelope that is not v1 or has no key for you' },
      },
    },
    run: (ctx, { fields, file }) => {
      refuseSandbox(ctx);
      return createVaultAsset(ctx.services, ctx.principal.user, fields, file);
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/vault/assign',
    trpc: 'assign',
    access: writeAccess,
    input: { body: ZVaultAssignInput },
    output: ZVaultItemView,
    status: 201,
    docs: {
      operationId: 'assignVaultItem',
      limits: [{ what: 'recipient', max: 1, per: 'file', refusal: 409 }],
      summary: 'Give a vault file to someone under a condition',
      description:
        '`condition_type`: `recipient_birthday` (`condition_value` MM-DD, or a date whose year is dropped; on the first such day after your death is confirmed, 28 February for 29 February in other years; `every_year` repeats it), ' +
        '`exact_date` (ISO date or date-time in the future) or `death_flag` (no value; when your death is confirmed). The answer has `qr_code_url`, an SVG QR code of the recipient’s claim link.',
      tags,
      responses: {
        201: { description: 'The vault item' },
        403: { description: 'A sandbox key, or your messages consent is withdrawn' },
        404: { description: 'The file is not yours, or no user has recipient_user_id' },
        409: { description: 'The file is already given to someone' },
        422: { description: 'A bad condition, a past date, the recipient has no keys or the envelope no key for them' },
      },
    },
    run: (ctx, input) => {
      refuseSandbox(ctx);
      return assignVaultItem(ctx.services, ctx.principal.user, input);
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/list',
    trpc: 'list',
    access: { kind: 'session' },
    input: {},
    output: z.array(ZVaultItemView),
    docs: {
      operationId: 'listVaultItems',
      summary: 'Your vault items',
      description: 'Newest first, each with its status in the release engine.',
      tags,
      responses: { 200: { description: 'Items' } },
    },
    run: ({ services, principal }) => listVaultItems(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/claim/{token}',
    trpc: 'claim',
    access: { kind: 'public' },
    input: { params: ZClaimTokenParam },
    output: ZVaultClaimView,
    notFound: claimNotFound,
    docs: {
      operationId: 'claimVaultItem',
      summary: 'What a claim link (QR code) holds',
      description:
        'Public. Says whether something is waiting or was released, never what. Signed in as the recipient you also learn from whom, and after release the Inbox message to open.',
      tags,
      authOptional: true,
      responses: { 200: { description: 'The claim' }, 404: { description: 'No item under this link (withdrawn)' } },
    },
    run: ({ services, principal }, { token }) => claimView(services, token, principal?.user.id ?? null),
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/claim/{token}/qr',
    trpc: false,
    access: { kind: 'public' },
    input: { params: ZClaimTokenParam },
    notFound: claimNotFound,
    docs: {
      operationId: 'vaultClaimQrCode',
      summary: 'The QR code of a claim link',
      description:
        'Public, like the link it encodes (an `<img>`, an email or a print can show it): an SVG QR code of `/claim/{token}`. The link shows nothing of the content without the recipient signed in.',
      tags,
      contentType: 'image/svg+xml',
      responses: { 200: { description: 'SVG' }, 404: { description: 'No item under this link' } },
    },
    run: async ({ services }, { token }) =>
      new Response(qrSvg(await claimLinkByToken(services, token)), {
        headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'private, max-age=300' },
      }),
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/{id}',
    trpc: 'get',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZVaultItemView,
    notFound: vaultItemNotFound,
    docs: { operationId: 'getVaultItem', summary: 'One vault item', tags, responses: { 200: { description: 'The item' }, 404: notYours } },
    run: ({ services, principal }, { id }) => getVaultItem(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/vault/{id}',
    trpc: 'delete',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: z.object({ ok: z.literal(true) }),
    notFound: vaultItemNotFound,
    docs: {
      operationId: 'deleteVaultItem',
      summary: 'Delete a vault item before its release',
      description: 'Removes the item, its file (also from storage) and its pending release.',
      tags,
      responses: { 200: { description: 'Deleted' }, 404: notYours, 409: { description: 'Already released' } },
    },
    run: async ({ services, principal }, { id }) => {
      await deleteVaultItem(services, principal.user.id, id);
      return { ok: true as const };
    },
  }),
] as const;
