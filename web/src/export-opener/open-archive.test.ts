// The offline opener's logic (open-archive.ts) on an archive made the way the Worker writes one
// (worker/src/domains/legal/export/): the owner's keys, an E2EE message with a recording and a file, a vault
// file, and a plain message's file whose key the archive does not hold.
import { describe, expect, test } from 'vitest';
import { KID_A, KID_B } from '../crypto/test-helpers';
import {
  bytesToBase64,
  createKeyBundle,
  encryptFile,
  exportPublicJwk,
  generateContentKey,
  generateKeyPair,
  sealAudio,
  sealMessage,
  bytesToBase64url,
} from '../crypto';
import { archiveFiles, archivePath } from './archive-files';
import { openArchive } from './open-archive';

const OWNER = KID_A;
const MESSAGE = '5b1f0c1e-1111-4c3a-9a51-3f0f8a2d7c11';
const PLAIN = '5b1f0c1e-2222-4c3a-9a51-3f0f8a2d7c11';
const ATTACHMENT = '9d2e4a70-3333-4c3a-9a51-3f0f8a2d7c11';
const PLAIN_ATTACHMENT = '9d2e4a70-4444-4c3a-9a51-3f0f8a2d7c11';
const ASSET = 'a1b2c3d4-5555-4c3a-9a51-3f0f8a2d7c11';
const utf8 = (s: string) => new TextEncoder().encode(s);
const json = (rows: unknown[]) => new Blob([JSON.stringify(rows)]);

async function ownersArchive() {
  const { bundle, recoveryKey } = await createKeyBundle('owner password', { iterations: 100_000 });
  const recipient = await exportPublicJwk((await generateKeyPair()).publicKey);
  const readers = [
    { kid: OWNER, publicKey: bundle.public_key },
    { kid: KID_B, publicKey: recipient },
  ];
  const file = await encryptFile(utf8('the deed, page one'));
  const contentKey = await generateContentKey();
  const audio = await sealAudio(contentKey, utf8('a recording'));
  const { envelope } = await sealMessage({
    payload: {
      text: 'Dear friend, <img src=x onerror=alert(1)>',
      audio: { iv: bytesToBase64url(audio.iv), type: 'audio/webm' },
      attachments: [{ iv: file.ivText, key: file.keyText, name: 'deed.txt', type: 'text/plain', size: 18 }],
    },
    contentKey,
    readers,
  });
  const vaultFile = await encryptFile(utf8('the vault photo'));
  const vault = await sealMessage({
    payload: { text: '', attachments: [{ iv: vaultFile.ivText, key: vaultFile.keyText, name: 'photo.jpg', type: 'image/jpeg', size: 15 }] },
    readers,
  });
  const plainFile = await encryptFile(utf8('no key in the archive'));
  const picked = [
    [
      'data/encryption_keys.json',
      json([
        {
          user_id: OWNER,
          public_key: JSON.stringify(bundle.public_key),
          password_wrap: JSON.stringify(bundle.password_wrap),
          recovery_wrap: JSON.stringify(bundle.recovery_wrap),
        },
      ]),
    ],
    [
      'data/messages_sent.json',
      json([
        { id: MESSAGE, content: '', content_encrypted: JSON.stringify(envelope) },
        { id: PLAIN, content: 'plain words', content_encrypted: null },
      ]),
    ],
    ['data/messages_received.json', json([])],
    // The upload form sends the IV in standard base64; the payload has it in base64url.
    [
      'data/attachments.json',
      json([
        { id: ATTACHMENT, message_id: MESSAGE, iv: bytesToBase64(file.iv) },
        { id: PLAIN_ATTACHMENT, message_id: PLAIN, iv: plainFile.ivBase64 },
      ]),
    ],
    ['data/vault_files.json', json([{ id: ASSET, iv: vaultFile.ivBase64, envelope: JSON.stringify(vault.envelope) }])],
    [`files/attachments/${MESSAGE}/${ATTACHMENT}-deed.txt.enc`, new Blob([file.ciphertext])],
    [`files/attachments/${PLAIN}/${PLAIN_ATTACHMENT}-note.txt.enc`, new Blob([plainFile.ciphertext])],
    [`files/messages_sent/${MESSAGE}/recording.enc`, new Blob([audio.ciphertext])],
    [`files/vault/${ASSET}-photo.jpg.enc`, new Blob([vaultFile.ciphertext])],
  ] as const;
  const files = archiveFiles(picked.map(([path, blob]) => ({ relativePath: `afterword-export-2026-11-28/${path}`, name: path.split('/').pop()!, blob })));
  return { files, recoveryKey };
}

describe('the offline opener', () => {
  test('the owner’s recovery key opens the message text, its file and recording, and the vault file', async () => {
    const { files, recoveryKey } = await ownersArchive();
    const opened = await openArchive(files, { recoveryKey: recoveryKey.toLowerCase() });
    expect(opened.messages).toEqual([{ id: MESSAGE, direction: 'sent', text: 'Dear friend, <img src=x onerror=alert(1)>' }]);
    const text = Object.fromEntries(opened.files.map((f) => [f.name, new TextDecoder().decode(f.bytes)]));
    expect(text).toEqual({ 'deed.txt': 'the deed, page one', [`recording-${MESSAGE}.webm`]: 'a recording', 'photo.jpg': 'the vault photo' });
    expect(opened.unopened).toEqual([
      { what: `files/attachments/${PLAIN}/${PLAIN_ATTACHMENT}-note.txt.enc`, reason: expect.stringContaining('not end-to-end encrypted') },
    ]);
  });

  test('the owner’s password opens the same; a wrong one opens nothing and says so', async () => {
    const { files } = await ownersArchive();
    expect((await openArchive(files, { password: 'owner password' })).files).toHaveLength(3);
    await expect(openArchive(files, { password: 'an outsider’s guess' })).rejects.toThrow('wrong password');
  });

  test('without data/encryption_keys.json the opener asks for the whole folder', async () => {
    const { files, recoveryKey } = await ownersArchive();
    files.delete('data/encryption_keys.json');
    await expect(openArchive(files, { recoveryKey })).rejects.toThrow('choose the whole export folder');
  });

  test('files picked one by one keep their archive names: records under data/, sealed files by name', () => {
    expect(archivePath({ relativePath: '', name: 'attachments.json' })).toBe('data/attachments.json');
    expect(archivePath({ relativePath: '', name: `${ATTACHMENT}-deed.txt.enc` })).toBe(`${ATTACHMENT}-deed.txt.enc`);
    expect(archivePath({ relativePath: 'Downloads/export/files/vault/x.enc', name: 'x.enc' })).toBe('files/vault/x.enc');
  });
});
