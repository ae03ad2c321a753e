import { describe, expect, it } from 'vitest';
import { MalformedRecoveryKeyError } from './errors';
import { formatRecoveryKey, generateRecoveryKey, normalizeRecoveryKey, parseRecoveryKey, recoveryKeyFileText } from './recovery-key';

const group = (s: string) => s.match(/.{1,4}/g)!.join('-');

describe('recovery key', () => {
  it('is RFC 4648 base32 of 32 bytes, unpadded, 13 dash-separated groups of 4', async () => {
    // Expected strings from Python's base64.b32encode with the '====' padding removed.
    expect(formatRecoveryKey(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(group('AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPQ'));
    expect(formatRecoveryKey(new Uint8Array(32).fill(0xff))).toBe(group(`${'7'.repeat(51)}Q`));
    const { bytes, text } = await generateRecoveryKey();
    expect(bytes).toHaveLength(32);
    expect(text).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){12}$/);
    expect(parseRecoveryKey(text)).toEqual(bytes);
  });

  it('parses regardless of case, spaces, line breaks and dashes', async () => {
    const { bytes, text } = await generateRecoveryKey();
    const compact = text.replace(/-/g, '');
    for (const typed of [text.toLowerCase(), compact, ` ${text.replace(/-/g, ' ')} `, compact.replace(/(.{13})/g, '$1\n'), text.replace(/-/g, ' - ')]) {
      expect(parseRecoveryKey(typed)).toEqual(bytes);
    }
    expect(normalizeRecoveryKey(compact.toLowerCase())).toBe(text);
  });

  it('refuses malformed keys with a clear message', () => {
    const good = 'A'.repeat(52);
    expect(() => parseRecoveryKey('')).toThrow(/empty/);
    expect(() => parseRecoveryKey(good.slice(1))).toThrow(/52 characters.*51/);
    expect(() => parseRecoveryKey(`${good}AAAA`)).toThrow(/52 characters.*56/);
    expect(() => parseRecoveryKey(`0${good.slice(1)}`)).toThrow(/'0'.*letter 'O'/);
    expect(() => parseRecoveryKey(`${good.slice(1)}!`)).toThrow(MalformedRecoveryKeyError);
    expect(() => parseRecoveryKey(`${good.slice(1)}B`)).toThrow(/last group/); // non-zero padding bits
    expect(() => formatRecoveryKey(new Uint8Array(16))).toThrow(MalformedRecoveryKeyError);
  });

  it('writes a self-explanatory .txt', async () => {
    const { text } = await generateRecoveryKey();
    const file = recoveryKeyFileText('ana@example.com', text.toLowerCase(), new Date('2026-03-04T10:00:00Z'));
    expect(file).toContain('ana@example.com');
    expect(file).toContain(text);
    expect(file).toContain('2026-03-04');
    expect(file).toMatch(/shown to you once/);
    expect(file).toMatch(/forget your password/);
    expect(file).toMatch(/cannot be recovered by anyone/);
    expect(() => recoveryKeyFileText('ana@example.com', 'nope')).toThrow(MalformedRecoveryKeyError);
  });
});
