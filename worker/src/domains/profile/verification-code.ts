import { PHONE_CODE_LENGTH } from '../../contracts/profile';
import { fromHex } from '../../lib/encoding';
import { constantTimeEqual, hashSecret } from '../../lib/secrets';

const SPACE = 10 ** PHONE_CODE_LENGTH;
// The largest multiple of SPACE that fits in 32 bits: draws at or above it are redrawn, so every
// code is equally likely (a plain `% SPACE` would favour the low codes).
const LIMIT = Math.floor(2 ** 32 / SPACE) * SPACE;

/** A uniformly random zero-padded numeric code. */
export function newVerificationCode(): string {
  const draw = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(draw);
    if (draw[0]! < LIMIT) return String(draw[0]! % SPACE).padStart(PHONE_CODE_LENGTH, '0');
  }
}

/**
 * What the table stores instead of the code. Bound to the account and the number, so a code only
 * ever verifies the number it was sent to, for the account that asked.
 */
export function hashVerificationCode(userId: string, phone: string, code: string): Promise<string> {
  return hashSecret(`phone-code:${userId}:${phone}:${code}`);
}

export function sameHash(a: string, b: string): boolean {
  return constantTimeEqual(fromHex(a), fromHex(b));
}
