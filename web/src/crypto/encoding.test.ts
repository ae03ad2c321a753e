import { describe, expect, it } from 'vitest';
import { base64ToBytes, base64urlToBytes, bytesToBase64, bytesToBase64url, equalBytes, utf8Decode, utf8Encode } from './encoding';
import { FormatError } from './errors';

const ascii = (s: string) => new TextEncoder().encode(s);

describe('base64url (RFC 4648 §5, no padding)', () => {
  it('matches the RFC 4648 §10 test vectors without their padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(bytesToBase64url(ascii(plain))).toBe(encoded);
      expect(base64urlToBytes(encoded)).toEqual(ascii(plain));
    }
  });

  it('uses - and _ instead of + and /', () => {
    expect(bytesToBase64url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(bytesToBase64(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('+/+/');
  });

  it('round-trips every length 0–70 of random bytes', () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n));
      expect(base64urlToBytes(bytesToBase64url(bytes))).toEqual(bytes);
      expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
    }
  });

  it('refuses padding, the standard alphabet, impossible lengths, non-canonical bits and wrong sizes', () => {
    for (const bad of ['Zg==', 'a+b/', 'Z', 'Zm9vY', 'Zh', 'Zm9', 'Zm:v', ' Zm9v']) {
      expect(() => base64urlToBytes(bad), bad).toThrow(FormatError);
    }
    expect(() => base64urlToBytes('Zm9v', 'iv', 12)).toThrow(/iv must encode 12 bytes/);
  });

  it('standard base64 accepts its padding and refuses broken padding', () => {
    expect(base64ToBytes('Zm9vYg==')).toEqual(ascii('foob'));
    expect(base64ToBytes('Zm9vYg')).toEqual(ascii('foob'));
    expect(() => base64ToBytes('Zm9vYg=')).toThrow(FormatError);
    expect(() => base64ToBytes('Zm-_')).toThrow(FormatError);
  });
});

describe('utf8', () => {
  it('round-trips non-ASCII text and refuses invalid UTF-8 instead of inventing U+FFFD', () => {
    const text = 'Für dich — 🕯️ 日本語';
    expect(utf8Decode(utf8Encode(text))).toBe(text);
    expect(() => utf8Decode(new Uint8Array([0xc3, 0x28]))).toThrow(FormatError);
  });

  it('compares bytes by value', () => {
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(equalBytes(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false);
  });
});
