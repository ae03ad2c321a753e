/*
 * Typed failures of the E2EE module. Callers (the UI) branch on the class, never on a message string,
 * and no function ever returns garbage in place of a plaintext: AES-GCM authenticates every byte, so a
 * wrong key or an altered byte is always detected and surfaces as one of these.
 */

export type E2eeErrorCode = 'format' | 'wrong-key' | 'tampered' | 'not-a-recipient' | 'malformed-recovery-key';

export abstract class E2eeError extends Error {
  abstract readonly code: E2eeErrorCode;
}

/** The input is not a v1 structure (bad JSON, base64url, length, version, JWK, payload shape, sizes). */
export class FormatError extends E2eeError {
  readonly code = 'format' as const;
  override readonly name = 'FormatError';
}

/**
 * A key wrap did not open: wrong password, wrong recovery key, wrong private key — or the wrap itself was
 * altered. GCM cannot tell those apart, and saying which would not help an attacker or the user.
 */
export class WrongKeyError extends E2eeError {
  readonly code = 'wrong-key' as const;
  override readonly name = 'WrongKeyError';
}

/** Sealed data (content, audio, attachment) failed authentication: it was altered, or the key is not its key. */
export class TamperedError extends E2eeError {
  readonly code = 'tampered' as const;
  override readonly name = 'TamperedError';
}

/** The envelope has no key wrap for this reader's kid: it was not sealed for them. */
export class NotARecipientError extends E2eeError {
  readonly code = 'not-a-recipient' as const;
  override readonly name = 'NotARecipientError';
}

/** What the user typed is not a recovery key (wrong length or characters); the message says which. */
export class MalformedRecoveryKeyError extends E2eeError {
  readonly code = 'malformed-recovery-key' as const;
  override readonly name = 'MalformedRecoveryKeyError';
}
