import { afterEach, describe, expect, it, vi } from 'vitest';
import { AES_GCM_IV_BYTES, aesGcmDecrypt, aesGcmEncrypt, exportAesKey, generateAesKey, importAesKey } from './aes-gcm';
import { bytesToBase64url } from './encoding';
import { FormatError, TamperedError } from './errors';
import { flipBit, hex, toHex } from './test-helpers';

/*
 * McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)", test cases 13–16 (the AES-256 cases,
 * also in NIST's GCM validation material). Exact published hex.
 */
const K15 = 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308';
const IV15 = 'cafebabefacedbaddecaf888';
const P15 = 'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255';
const GCM_VECTORS = [
  { name: 'test case 13', key: '00'.repeat(32), iv: '00'.repeat(12), pt: '', aad: '', ct: '', tag: '530f8afbc74536b9a963b4f1c4cb738b' },
  {
    name: 'test case 14',
    key: '00'.repeat(32),
    iv: '00'.repeat(12),
    pt: '00'.repeat(16),
    aad: '',
    ct: 'cea7403d4d606b6e074ec5d3baf39d18',
    tag: 'd0d1c8a799996bf0265b98b5d48ab919',
  },
  {
    name: 'test case 15',
    key: K15,
    iv: IV15,
    pt: P15,
    aad: '',
    ct: '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad',
    tag: 'b094dac5d93471bdec1a502270e3cc6c',
  },
  {
    name: 'test case 16',
    key: K15,
    iv: IV15,
    pt: P15.slice(0, 120),
    aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
    ct: '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662',
    tag: '76fc6ece0f4e1768cddf8853bb2d551b',
  },
];

afterEach(() => vi.restoreAllMocks());

describe('the platform', () => {
  it('runs these tests on a real WebCrypto SubtleCrypto, not a stub', async () => {
    expect(crypto.subtle).toBeInstanceOf(SubtleCrypto);
    expect(Object.prototype.toString.call(crypto.subtle)).toBe('[object SubtleCrypto]');
    const key = await generateAesKey();
    expect(key).toBeInstanceOf(CryptoKey);
    expect(key.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
  });
});

describe('AES-GCM-256 known answers (McGrew–Viega GCM spec, test cases 13–16)', () => {
  for (const v of GCM_VECTORS) {
    it(`${v.name}: encrypt reproduces C‖T exactly, decrypt returns P`, async () => {
      const key = await importAesKey(hex(v.key));
      // The module draws its own IV; feed it the vector's IV through the CSPRNG to check the exact output.
      const spy = vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
        (array as unknown as Uint8Array).set(hex(v.iv));
        return array;
      });
      const sealed = await aesGcmEncrypt(key, hex(v.pt), v.aad ? hex(v.aad) : undefined);
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockRestore();
      expect(toHex(sealed.iv)).toBe(v.iv);
      expect(toHex(sealed.ciphertext)).toBe(v.ct + v.tag);
      const opened = await aesGcmDecrypt(key, hex(v.iv), hex(v.ct + v.tag), v.aad ? hex(v.aad) : undefined);
      expect(toHex(opened)).toBe(v.pt);
    });
  }

  it('test case 16 with one bit of the AAD, tag, ciphertext or IV changed is refused', async () => {
    const v = GCM_VECTORS[3]!;
    const key = await importAesKey(hex(v.key));
    const sealed = hex(v.ct + v.tag);
    await expect(aesGcmDecrypt(key, hex(v.iv), sealed, flipBit(hex(v.aad), 0))).rejects.toThrow(TamperedError);
    await expect(aesGcmDecrypt(key, hex(v.iv), flipBit(sealed, -1))).rejects.toThrow(TamperedError);
    await expect(aesGcmDecrypt(key, hex(v.iv), flipBit(sealed, 5), hex(v.aad))).rejects.toThrow(TamperedError);
    await expect(aesGcmDecrypt(key, flipBit(hex(v.iv), 11), sealed, hex(v.aad))).rejects.toThrow(TamperedError);
    await expect(aesGcmDecrypt(key, hex(v.iv), sealed)).rejects.toThrow(TamperedError); // AAD dropped
  });
});

describe('AES-GCM-256 with random IVs', () => {
  it('round-trips with and without AAD; the ciphertext is the plaintext length + 16', async () => {
    const key = await generateAesKey();
    const pt = crypto.getRandomValues(new Uint8Array(1000));
    const aad = new TextEncoder().encode('context');
    const a = await aesGcmEncrypt(key, pt, aad);
    expect(a.iv).toHaveLength(AES_GCM_IV_BYTES);
    expect(a.ciphertext).toHaveLength(1016);
    expect(await aesGcmDecrypt(key, a.iv, a.ciphertext, aad)).toEqual(pt);
    const b = await aesGcmEncrypt(key, pt);
    expect(await aesGcmDecrypt(key, b.iv, b.ciphertext)).toEqual(pt);
    await expect(aesGcmDecrypt(key, b.iv, b.ciphertext, aad)).rejects.toThrow(TamperedError);
  });

  it('a wrong key is refused, never yields garbage', async () => {
    const sealed = await aesGcmEncrypt(await generateAesKey(), new Uint8Array([1, 2, 3]));
    await expect(aesGcmDecrypt(await generateAesKey(), sealed.iv, sealed.ciphertext)).rejects.toThrow(TamperedError);
  });

  it('10,000 encryptions under one key never repeat an IV', async () => {
    const key = await generateAesKey();
    const seen = new Set<string>();
    const pt = new Uint8Array(1);
    for (let i = 0; i < 10_000; i++) seen.add(bytesToBase64url((await aesGcmEncrypt(key, pt)).iv));
    expect(seen.size).toBe(10_000);
  });

  it('refuses IVs that are not 12 bytes and ciphertexts shorter than the tag', async () => {
    const key = await generateAesKey();
    await expect(aesGcmDecrypt(key, new Uint8Array(16), new Uint8Array(32))).rejects.toThrow(FormatError);
    await expect(aesGcmDecrypt(key, new Uint8Array(12), new Uint8Array(15))).rejects.toThrow(FormatError);
  });

  it('imports and exports exactly 32-byte raw keys', async () => {
    const raw = crypto.getRandomValues(new Uint8Array(32));
    expect(await exportAesKey(await importAesKey(raw, true))).toEqual(raw);
    await expect(importAesKey(new Uint8Array(16))).rejects.toThrow(FormatError);
    await expect(importAesKey(new Uint8Array(33))).rejects.toThrow(FormatError);
    await expect(exportAesKey(await importAesKey(raw))).rejects.toThrow(); // not extractable by default
  });
});
