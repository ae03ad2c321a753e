import { z } from 'zod';

/*
 * The end-to-end encryption formats (docs/security/e2ee.md), version 1. Shared by the browser's crypto
 * module (web/src/crypto/, which builds and opens them), the server (which only checks their shape and
 * stores them — it never has a key to open them) and the Node interop implementation in tests.
 * Every binary field is base64url without padding.
 */

export const E2EE_VERSION = 1;
/** AAD of the sealed content, of an E2EE message's audio, of a wrapped private key; HKDF info of key wraps. */
export const E2EE_CONTENT_AAD = 'afterword/e2ee/v1';
export const E2EE_AUDIO_AAD = 'afterword/e2ee/v1/audio';
export const E2EE_PRIVATE_KEY_AAD = 'afterword/e2ee/v1/private-key';
export const E2EE_WRAP_INFO = 'afterword/e2ee/v1/wrap';
export const E2EE_RECOVERY_INFO = 'afterword/e2ee/v1/recovery';
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256; stored with each wrap so it can be raised later. */
export const PBKDF2_ITERATIONS = 600_000;
export const MAX_ENVELOPE_RECIPIENTS = 4;

const b64u = (bytes: number | { min: number; max: number }, what: string) => {
  const [min, max] = typeof bytes === 'number' ? [bytes, bytes] : [bytes.min, bytes.max];
  const len = (n: number) => Math.ceil((n * 4) / 3);
  return z
    .string({ message: `${what} must be base64url` })
    .regex(/^[A-Za-z0-9_-]*$/, { message: `${what} must be base64url without padding` })
    .refine((s) => s.length >= len(min) && s.length <= len(max) && s.length % 4 !== 1, {
      message: min === max ? `${what} must encode ${min} bytes` : `${what} must encode ${min}–${max} bytes`,
    });
};

/** An ECDH P-256 public key as a JWK (never a private one: `d` is refused). */
export const ZPublicKeyJwk = z
  .object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: b64u(32, 'x'),
    y: b64u(32, 'y'),
    ext: z.boolean().optional(),
    key_ops: z.array(z.string()).optional(),
  })
  // A private key (with `d`) or anything else extra is refused.
  .strict();
export type TPublicKeyJwk = z.infer<typeof ZPublicKeyJwk>;

/** The content key wrapped for one reader: ephemeral ECDH + HKDF-SHA-256 → AES-GCM-256 (AAD = kid). */
export const ZRecipientWrap = z.object({
  kid: z.string().uuid({ message: 'kid must be the reader’s user id' }),
  alg: z.literal('ECDH-ES+HKDF-SHA256+A256GCM'),
  epk: ZPublicKeyJwk,
  salt: b64u(16, 'salt'),
  iv: b64u(12, 'iv'),
  /** The 32-byte content key + the 16-byte tag. */
  wrapped: b64u(48, 'wrapped'),
});

/** `content_encrypted` of an E2EE message. */
export const ZEnvelope = z.object({
  v: z.literal(E2EE_VERSION, { message: 'unsupported envelope version' }),
  alg: z.literal('A256GCM'),
  iv: b64u(12, 'iv'),
  /** Ciphertext + 16-byte tag of the UTF-8 JSON payload (ZSealedPayload). */
  ct: b64u({ min: 16, max: 400_000 }, 'ct'),
  recipients: z.array(ZRecipientWrap).min(1).max(MAX_ENVELOPE_RECIPIENTS),
});
export type TEnvelope = z.infer<typeof ZEnvelope>;

/** What the envelope seals (only browsers ever see it). */
export const ZSealedPayload = z.object({
  text: z.string(),
  /** The message's audio, sealed with the content key under this IV (AAD E2EE_AUDIO_AAD). */
  audio: z.object({ iv: b64u(12, 'audio.iv'), type: z.string().max(100) }).optional(),
  /** Attachment keys (each file has its own key, shown to the sender); matched to uploads by IV. */
  attachments: z
    .array(z.object({ iv: b64u(12, 'iv'), key: b64u(32, 'key'), name: z.string().max(255), type: z.string().max(100), size: z.number().int().nonnegative() }))
    .max(20)
    .optional(),
});
export type TSealedPayload = z.infer<typeof ZSealedPayload>;

const ZPbkdf2 = z.object({
  name: z.literal('PBKDF2'),
  hash: z.literal('SHA-256'),
  iterations: z.number().int().min(100_000).max(10_000_000),
  salt: b64u(16, 'salt'),
});
const ZRecoveryHkdf = z.object({ name: z.literal('HKDF'), hash: z.literal('SHA-256'), salt: b64u(16, 'salt'), info: z.literal(E2EE_RECOVERY_INFO) });

/** A private key (PKCS#8) sealed under a password- or recovery-derived key. */
export const ZWrappedPrivateKey = z.object({
  v: z.literal(E2EE_VERSION),
  kdf: z.discriminatedUnion('name', [ZPbkdf2, ZRecoveryHkdf]),
  alg: z.literal('A256GCM'),
  iv: b64u(12, 'iv'),
  ct: b64u({ min: 100, max: 400 }, 'ct'),
});
export type TWrappedPrivateKey = z.infer<typeof ZWrappedPrivateKey>;

/** PUT /api/keys/me: the first key bundle of an account. */
export const ZKeyBundle = z.object({
  public_key: ZPublicKeyJwk,
  password_wrap: ZWrappedPrivateKey.refine((w) => w.kdf.name === 'PBKDF2', { message: 'password_wrap must use PBKDF2' }),
  recovery_wrap: ZWrappedPrivateKey.refine((w) => w.kdf.name === 'HKDF', { message: 'recovery_wrap must use the recovery HKDF' }),
});
export type TKeyBundle = z.infer<typeof ZKeyBundle>;

/** Parses `content_encrypted` (a JSON string) into an envelope, or says why it is not one. */
export function parseEnvelope(text: string): { ok: true; envelope: TEnvelope } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'content_encrypted is not JSON' };
  }
  const parsed = ZEnvelope.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      error: `content_encrypted is not a v1 envelope: ${parsed.error.issues[0]?.path.join('.') || 'root'} ${parsed.error.issues[0]?.message ?? ''}`.trim(),
    };
  return { ok: true, envelope: parsed.data };
}

/** keys.forUser / GET /api/keys/{userId}. */
export const ZKeysOfUser = z.object({ user_id: z.string().trim().uuid({ message: 'user_id must be a user id (a UUID)' }) });

/** GET /api/keys/me and the 201 of PUT /api/keys/me. */
export const ZKeyBundleView = z.object({
  public_key: ZPublicKeyJwk,
  password_wrap: ZWrappedPrivateKey,
  recovery_wrap: ZWrappedPrivateKey,
  /** When the owner said they saved the recovery key of `recovery_wrap`; null until then. */
  recovery_saved_at: z.string().nullable(),
  created_at: z.string(),
});
export type KeyBundleView = z.infer<typeof ZKeyBundleView>;

/** GET /api/keys/me/recovery: whether the account has keys and when its recovery key was said to be saved. */
export const ZRecoveryStatus = z.object({ has_keys: z.boolean(), recovery_saved_at: z.string().nullable() });
export type RecoveryStatus = z.infer<typeof ZRecoveryStatus>;

/** POST /api/keys/me/recovery/saved: the recovery key the owner saved, named by its wrap's `ct`. */
export const ZRecoverySaved = z.object({ recovery_ct: ZWrappedPrivateKey.shape.ct });
export type TRecoverySaved = z.infer<typeof ZRecoverySaved>;

/** GET /api/keys/{userId}: what a sender needs to seal for that user. */
export const ZPublicKeyView = z.object({ user_id: z.string(), public_key: ZPublicKeyJwk });
export type PublicKeyView = z.infer<typeof ZPublicKeyView>;

/** keys.lookup: the same, with `public_key: null` instead of a 404 (the message form asks as the recipient is typed). */
export const ZPublicKeyLookup = z.object({ user_id: z.string(), public_key: ZPublicKeyJwk.nullable() });
export type PublicKeyLookup = z.infer<typeof ZPublicKeyLookup>;
