/*
 * The recovery key: 32 random bytes that unlock the private key when the password is lost. Shown once as
 * RFC 4648 base32 (A–Z, 2–7: no 0/1/8/9, so no O-vs-0 or I-vs-1 confusion when copied by hand), without
 * padding, in groups of 4 joined by '-': 52 characters, 13 groups. 256 bits do not fill 52×5 = 260 bits,
 * so the last character carries 1 data bit and 4 zero bits — a parser that insists on those zeros catches
 * most typos in the final group; no separate checksum is added (the unwrap itself is the real check).
 */
import { randomBytes, type Bytes } from './encoding';
import { MalformedRecoveryKeyError } from './errors';

export const RECOVERY_KEY_BYTES = 32;
/** ceil(256 / 5). */
export const RECOVERY_KEY_CHARS = 52;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(acc >> (bits - 5)) & 31]!;
      bits -= 5;
    }
    acc &= (1 << bits) - 1; // keep only the unread bits so `acc` never overflows
  }
  if (bits > 0) out += ALPHABET[(acc << (5 - bits)) & 31]!;
  return out;
}

/** 32 bytes → "ABCD-EFGH-…" (13 groups of 4). */
export function formatRecoveryKey(bytes: Uint8Array): string {
  if (bytes.length !== RECOVERY_KEY_BYTES) throw new MalformedRecoveryKeyError(`a recovery key is ${RECOVERY_KEY_BYTES} bytes`);
  return base32(bytes)
    .match(/.{1,4}/g)!
    .join('-');
}

/** A new recovery key: its bytes (for HKDF) and its text (to show once and offer as a .txt download). */
export async function generateRecoveryKey(): Promise<{ bytes: Bytes; text: string }> {
  const bytes = randomBytes(RECOVERY_KEY_BYTES);
  return { bytes, text: formatRecoveryKey(bytes) };
}

/**
 * What the user typed or pasted → 32 bytes. Case, spaces, tabs, line breaks and dashes are ignored (the
 * key is often retyped from paper); anything else is refused with a message that says what is wrong.
 */
export function parseRecoveryKey(input: string): Bytes {
  if (typeof input !== 'string') throw new MalformedRecoveryKeyError('the recovery key must be text');
  const compact = input.replace(/[\s-]+/g, '').toUpperCase();
  if (compact.length === 0) throw new MalformedRecoveryKeyError('the recovery key is empty');
  const bad = [...compact].find((c) => !ALPHABET.includes(c));
  if (bad !== undefined) {
    const hint =
      bad === '0'
        ? " (did you mean the letter 'O'?)"
        : bad === '1'
          ? " (did you mean the letter 'I' or 'L'?)"
          : bad === '8'
            ? " (did you mean the letter 'B'?)"
            : '';
    throw new MalformedRecoveryKeyError(`the recovery key contains '${bad}', which is not one of its characters (A–Z, 2–7)${hint}`);
  }
  if (compact.length !== RECOVERY_KEY_CHARS) {
    throw new MalformedRecoveryKeyError(`the recovery key has ${RECOVERY_KEY_CHARS} characters (13 groups of 4); this has ${compact.length}`);
  }
  const out = new Uint8Array(RECOVERY_KEY_BYTES);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const c of compact) {
    acc = (acc << 5) | ALPHABET.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      out[o++] = (acc >> (bits - 8)) & 255;
      bits -= 8;
      acc &= (1 << bits) - 1;
    }
  }
  // 4 bits remain; a key we generated always has them at zero (last character A or Q).
  if (acc !== 0) throw new MalformedRecoveryKeyError('the last group of the recovery key is mistyped (its last character can only be A or Q)');
  return out;
}

/** Normalises any accepted spelling to the canonical grouped form (for display and comparisons). */
export function normalizeRecoveryKey(input: string): string {
  return formatRecoveryKey(parseRecoveryKey(input));
}

/**
 * The text of the downloadable `afterword-recovery-key.txt`. Written for someone who finds the file years
 * later (perhaps after the account holder's death), so it says what it is without assuming context.
 */
export function recoveryKeyFileText(email: string, key: string, createdAt: Date = new Date()): string {
  const formatted = normalizeRecoveryKey(key);
  return [
    'AFTERWORD RECOVERY KEY',
    '',
    `Account:  ${email}`,
    `Created:  ${createdAt.toISOString().slice(0, 10)}`,
    '',
    `    ${formatted}`,
    '',
    'What this is',
    '  Your end-to-end encrypted messages, audio and attachments are locked with a private key that only',
    '  your password can open. This recovery key is the second, independent way to open it. It was made',
    '  in your browser and shown to you once. Afterword does not keep a copy and cannot show it again.',
    '',
    'How to use it',
    '  If you forget your password, choose "Forgot password?" on the sign-in page. The link we email you',
    '  asks for this key (paste it or upload this file) before you choose a new password; your encrypted',
    '  items then open again. Upper or lower case, spaces and dashes do not matter.',
    '',
    'Keep it safe',
    '  Store it offline (printed, or in a password manager), not next to your password. Anyone who has',
    '  this key and can sign in to your account can read your end-to-end encrypted items.',
    '  If you lose both your password and this key, those items cannot be recovered by anyone,',
    '  including Afterword.',
    '',
  ].join('\n');
}
