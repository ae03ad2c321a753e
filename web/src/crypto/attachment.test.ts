import { ZSealedPayload } from '@afterword/worker/contracts/e2ee';
import { describe, expect, it } from 'vitest';
import { attachmentPayloadEntry, decryptFile, encryptFile } from './attachment';
import { base64ToBytes, base64urlToBytes } from './encoding';
import { FormatError, TamperedError } from './errors';
import { flipBit } from './test-helpers';

describe('attachments', () => {
  it('round-trips with a fresh key and IV per file; key and IV also come as text', async () => {
    const file = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) & 255); // over getRandomValues' 64 KiB cap
    const a = await encryptFile(file);
    const b = await encryptFile(file);
    expect(a.key).toHaveLength(32);
    expect(a.iv).toHaveLength(12);
    expect(a.ciphertext).toHaveLength(file.length + 16);
    expect(a.keyText).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(base64urlToBytes(a.keyText)).toEqual(a.key);
    expect(base64urlToBytes(a.ivText)).toEqual(a.iv);
    expect(base64ToBytes(a.ivBase64)).toEqual(a.iv);
    expect(a.keyText).not.toBe(b.keyText);
    expect(a.ivText).not.toBe(b.ivText);
    expect(await decryptFile(a.key, a.iv, a.ciphertext)).toEqual(file);
    expect(await decryptFile(a.keyText, a.ivText, a.ciphertext)).toEqual(file);
  });

  it('uses no AAD: plain AES-GCM with only key + IV decrypts it (what the download endpoint does)', async () => {
    const file = new TextEncoder().encode('the deed to the house');
    const enc = await encryptFile(file);
    const key = await crypto.subtle.importKey('raw', enc.key, 'AES-GCM', false, ['decrypt']);
    expect(new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: enc.iv }, key, enc.ciphertext))).toEqual(file);
  });

  it('a wrong key or an altered blob/IV is a TamperedError; a malformed key is a FormatError', async () => {
    const enc = await encryptFile(new Uint8Array([1, 2, 3]));
    const other = await encryptFile(new Uint8Array([1, 2, 3]));
    await expect(decryptFile(other.key, enc.iv, enc.ciphertext)).rejects.toThrow(TamperedError);
    await expect(decryptFile(enc.key, enc.iv, flipBit(enc.ciphertext, 0))).rejects.toThrow(TamperedError);
    await expect(decryptFile(enc.key, enc.iv, flipBit(enc.ciphertext, -1))).rejects.toThrow(TamperedError);
    await expect(decryptFile(enc.key, flipBit(enc.iv, 0), enc.ciphertext)).rejects.toThrow(TamperedError);
    await expect(decryptFile('short', enc.iv, enc.ciphertext)).rejects.toThrow(FormatError);
  });

  it('its payload entry fits ZSealedPayload.attachments', async () => {
    const enc = await encryptFile(new Uint8Array(10));
    const entry = attachmentPayloadEntry(enc, { name: 'photo.jpg', type: 'image/jpeg', size: 10 });
    expect(ZSealedPayload.parse({ text: '', attachments: [entry] }).attachments).toEqual([entry]);
  });
});
