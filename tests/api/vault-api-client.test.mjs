// An executor's system seals a vault file through the API with only a create:vault key, as
// docs/security/e2ee.md "Vault files from an API client" tells it to, using Node's own implementation of the
// formats (tests/support/e2ee-node.mjs), not the web app's. The recipient opens the released file, and the
// owner reads it back, byte for byte.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import * as node from '../support/e2ee-node.mjs';
import { api } from '../support/http.mjs';
import { accountWithKeys } from '../support/keys.mjs';
import { eventually } from '../support/page.mjs';

/** A reader opens a message's envelope and its one attachment: the file's bytes. */
async function openVaultFile(reader, messageId) {
  const detail = await api('GET', `/api/message/${messageId}`, { token: reader.token });
  assert.equal(detail.status, 200, detail.text);
  const envelope = detail.json.message?.content_encrypted ?? detail.json.content_encrypted;
  const payload = await node.openMessage(envelope, { kid: reader.id, privateKey: reader.privateKey });
  const [entry] = payload.attachments;
  const listed = await api('GET', `/api/message/${messageId}/attachments`, { token: reader.token });
  assert.equal(listed.status, 200, listed.text);
  const stored = listed.json.find((a) => a.iv.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_') === entry.iv);
  assert.ok(stored, 'the attachment whose IV the payload names');
  const cipher = await fetch(new URL(`/api/attachments/${stored.id}/ciphertext`, process.env.AFTERWORD_ORIGIN), {
    headers: { authorization: `Bearer ${reader.token}` },
  });
  assert.equal(cipher.status, 200);
  return { entry, bytes: await node.decryptFile(entry.key, entry.iv, new Uint8Array(await cipher.arrayBuffer())) };
}

describe("vault: an executor's system with a create:vault key", () => {
  const s = {};
  before(async () => {
    s.owner = await accountWithKeys();
    s.recipient = await accountWithKeys();
    const key = await api('POST', '/api/developer/keys', { token: s.owner.token, body: { name: 'executor', scopes: ['create:vault'] } });
    assert.equal(key.status, 201, key.text);
    s.key = key.json.key;
    s.file = randomBytes(3000);
  });

  test('vault API client: seals a file for the owner and the recipient, who opens it once released; the owner reads it back', async () => {
    // 1. The two public keys, each under the user id that is its kid.
    const keys = await api('GET', `/api/vault/sealing-keys?recipient_user_id=${s.recipient.id}`, { token: s.key });
    assert.equal(keys.status, 200, keys.text);
    assert.equal(keys.json.owner.user_id, s.owner.id);
    assert.equal(keys.json.recipient.user_id, s.recipient.id);

    // 2. The file under its own key; that key sealed in a v1 envelope as the payload's one attachment.
    const encrypted = await node.encryptFile(s.file);
    const { envelope } = await node.sealEnvelope({
      payload: {
        text: '',
        attachments: [{ iv: encrypted.ivText, key: encrypted.keyText, name: 'will.pdf', type: 'application/pdf', size: s.file.length }],
      },
      readers: [
        { kid: keys.json.owner.user_id, publicKey: keys.json.owner.public_key },
        { kid: keys.json.recipient.user_id, publicKey: keys.json.recipient.public_key },
      ],
    });

    // 3. The ciphertext, its IV (standard base64) and the envelope as JSON text.
    const form = new FormData();
    form.append('file', new Blob([encrypted.ciphertext]), 'will.pdf.enc');
    form.append('iv', encrypted.ivBase64);
    form.append('envelope', JSON.stringify(envelope));
    form.append('name', 'will.pdf');
    form.append('consent', 'true');
    const created = await api('POST', '/api/vault/create', { token: s.key, raw: form });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.size, s.file.length + 16, 'size is the stored ciphertext’s: the file and its 16-byte tag');

    // 4. Given to the recipient a moment from now.
    const at = new Date(Date.now() + 3000).toISOString();
    const assigned = await api('POST', '/api/vault/assign', {
      token: s.key,
      body: { asset_id: created.json.asset_id, recipient_user_id: s.recipient.id, condition_type: 'exact_date', condition_value: at },
    });
    assert.equal(assigned.status, 201, assigned.text);
    assert.match(assigned.json.claim_url, /^https?:\/\/[^/]+\/claim\//, 'claim_url is absolute');
    assert.match(assigned.json.qr_code_url, /^https?:\/\/[^/]+\/api\/vault\/claim\/[^/]+\/qr$/, 'qr_code_url is absolute');

    // The recipient opens it from their Inbox once released.
    await eventually(
      async () => (await api('GET', '/api/message/inbox', { token: s.recipient.token })).json?.some((m) => m.id === assigned.json.message_id),
      'the vault file released to the recipient',
    );
    const received = await openVaultFile(s.recipient, assigned.json.message_id);
    assert.equal(received.entry.name, 'will.pdf');
    assert.deepEqual(Buffer.from(received.bytes), s.file);

    // The owner reads their own file back from the item's message.
    const own = await openVaultFile(s.owner, assigned.json.message_id);
    assert.deepEqual(Buffer.from(own.bytes), s.file);
  });
});
