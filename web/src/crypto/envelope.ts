/*
 * The v1 envelope: an E2EE message's `content_encrypted` (docs/server-rules.md "End-to-end encryption",
 * docs/security/e2ee.md).
 *  - content: a fresh AES-GCM-256 content key seals the UTF-8 JSON payload (AAD E2EE_CONTENT_AAD);
 *  - per reader (recipient and sender, at most 4): an ephemeral ECDH P-256 key agreement with the
 *    reader's public key, HKDF-SHA-256 → a one-off wrap key, which seals the raw content key with the
 *    reader's kid as AAD (so a wrap cannot be moved to another reader's slot).
 * An ephemeral key per reader means the sender needs no long-term key of its own to seal, and each wrap
 * key is used exactly once.
 */
import {
  E2EE_AUDIO_AAD,
  E2EE_CONTENT_AAD,
  E2EE_VERSION,
  MAX_ENVELOPE_RECIPIENTS,
  ZEnvelope,
  ZPublicKeyJwk,
  ZSealedPayload,
  parseEnvelope,
  type TEnvelope,
  type TPublicKeyJwk,
  type TSealedPayload,
} from '@afterword/worker/contracts/e2ee';
import { aesGcmDecrypt, aesGcmEncrypt, exportAesKey, generateAesKey, importAesKey, type AesGcmSealed } from './aes-gcm';
import { base64urlToBytes, bytesToBase64url, utf8Decode, utf8Encode, type Bytes } from './encoding';
import { FormatError, NotARecipientError, TamperedError, WrongKeyError } from './errors';
import { deriveRecipientWrapKey, newSalt } from './kdf';
import { exportPublicJwk, generateKeyPair, importPublicJwk } from './keys';

export const RECIPIENT_WRAP_ALG = 'ECDH-ES+HKDF-SHA256+A256GCM';
const CONTENT_AAD = utf8Encode(E2EE_CONTENT_AAD);
const AUDIO_AAD = utf8Encode(E2EE_AUDIO_AAD);

export interface Reader {
  /** The reader's user id (a UUID); it names their wrap and is its AAD. */
  kid: string;
  publicKey: TPublicKeyJwk;
}

export interface SealMessageInput {
  payload: TSealedPayload;
  /** Pass the key that already sealed the audio (sealAudio) so one key covers the whole message. */
  contentKey?: CryptoKey;
  readers: Reader[];
}

/** A new content key, for sealing the audio before the payload that names its IV. */
export async function generateContentKey(): Promise<CryptoKey> {
  return generateAesKey(true);
}

function issue(err: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return `${err.issues[0]?.path.join('.') || 'root'} ${err.issues[0]?.message ?? ''}`.trim();
}

async function ecdhSecret(privateKey: CryptoKey, publicKey: CryptoKey): Promise<Bytes> {
  // 256 bits = the x-coordinate of the shared point, the raw Z of SP 800-56A; HKDF then extracts from it.
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256));
}

async function wrapForReader(rawContentKey: Bytes, reader: Reader): Promise<TEnvelope['recipients'][number]> {
  const readerKey = await importPublicJwk(reader.publicKey);
  const ephemeral = await generateKeyPair();
  const salt = newSalt();
  const wrapKey = await deriveRecipientWrapKey(await ecdhSecret(ephemeral.privateKey, readerKey), salt);
  const { iv, ciphertext } = await aesGcmEncrypt(wrapKey, rawContentKey, utf8Encode(reader.kid));
  return {
    kid: reader.kid,
    alg: RECIPIENT_WRAP_ALG,
    epk: await exportPublicJwk(ephemeral.publicKey),
    salt: bytesToBase64url(salt),
    iv: bytesToBase64url(iv),
    wrapped: bytesToBase64url(ciphertext),
  };
  // The ephemeral private key goes out of scope here and is never exported: forward secrecy for the sender.
}

/** Seals a payload for 1–4 readers. Returns the envelope and the content key (for sealAudio). */
export async function sealMessage(input: SealMessageInput): Promise<{ envelope: TEnvelope; contentKey: CryptoKey }> {
  const payload = ZSealedPayload.safeParse(input.payload);
  if (!payload.success) throw new FormatError(`the payload is not valid: ${issue(payload.error)}`);
  const { readers } = input;
  if (readers.length < 1 || readers.length > MAX_ENVELOPE_RECIPIENTS)
    throw new FormatError(`an envelope has 1–${MAX_ENVELOPE_RECIPIENTS} readers, not ${readers.length}`);
  const kids = new Set(readers.map((r) => r.kid.toLowerCase()));
  if (kids.size !== readers.length) throw new FormatError('each reader may appear only once');
  for (const r of readers) {
    if (!ZPublicKeyJwk.safeParse(r.publicKey).success) throw new FormatError(`reader ${r.kid} has no valid P-256 public key`);
  }

  const contentKey = input.contentKey ?? (await generateContentKey());
  const raw = await exportAesKey(contentKey);
  try {
    const { iv, ciphertext } = await aesGcmEncrypt(contentKey, utf8Encode(JSON.stringify(payload.data)), CONTENT_AAD);
    const recipients = [];
    for (const reader of readers) recipients.push(await wrapForReader(raw, reader));
    const envelope = ZEnvelope.safeParse({ v: E2EE_VERSION, alg: 'A256GCM', iv: bytesToBase64url(iv), ct: bytesToBase64url(ciphertext), recipients });
    // Only reachable with a kid that is not a UUID or a payload over the 400 kB limit.
    if (!envelope.success) throw new FormatError(`cannot build a valid envelope: ${issue(envelope.error)}`);
    return { envelope: envelope.data, contentKey };
  } finally {
    raw.fill(0);
  }
}

/** Parses `content_encrypted` (JSON text) or an already-parsed object with the contract. */
export function readEnvelope(input: string | unknown): TEnvelope {
  if (typeof input === 'string') {
    const parsed = parseEnvelope(input);
    if (!parsed.ok) throw new FormatError(parsed.error);
    return parsed.envelope;
  }
  const parsed = ZEnvelope.safeParse(input);
  if (!parsed.success) throw new FormatError(`not a v1 envelope: ${issue(parsed.error)}`);
  return parsed.data;
}

/**
 * Opens an envelope for one reader and returns the payload and the content key (for openAudio).
 * NotARecipientError: no wrap for this kid. WrongKeyError: the wrap did not open (wrong private key, or
 * an altered epk/salt/iv/wrapped/kid). TamperedError: the content did not authenticate. FormatError:
 * malformed input, or an authenticated payload that is not a ZSealedPayload.
 */
export async function openEnvelope(
  input: string | unknown,
  reader: { kid: string; privateKey: CryptoKey },
): Promise<{ payload: TSealedPayload; contentKey: CryptoKey }> {
  const envelope = readEnvelope(input);
  const algorithm = reader.privateKey.algorithm as EcKeyAlgorithm;
  if (reader.privateKey.type !== 'private' || algorithm.name !== 'ECDH' || algorithm.namedCurve !== 'P-256')
    throw new FormatError('openEnvelope needs the reader’s ECDH P-256 private key');
  const wrap = envelope.recipients.find((r) => r.kid.toLowerCase() === reader.kid.toLowerCase());
  if (!wrap) throw new NotARecipientError('this message was not sealed for you');

  let epk: CryptoKey;
  try {
    epk = await importPublicJwk(wrap.epk);
  } catch {
    throw new WrongKeyError('the message key could not be unwrapped: its ephemeral key is not a P-256 point');
  }
  let raw: Bytes;
  try {
    const wrapKey = await deriveRecipientWrapKey(await ecdhSecret(reader.privateKey, epk), base64urlToBytes(wrap.salt, 'salt', 16));
    raw = await aesGcmDecrypt(wrapKey, base64urlToBytes(wrap.iv, 'iv', 12), base64urlToBytes(wrap.wrapped, 'wrapped', 48), utf8Encode(wrap.kid));
  } catch (err) {
    if (err instanceof TamperedError) throw new WrongKeyError('the message key could not be unwrapped: wrong private key, or the envelope was altered');
    throw err;
  }
  const contentKey = await importAesKey(raw);
  raw.fill(0);

  const plaintext = await aesGcmDecrypt(contentKey, base64urlToBytes(envelope.iv, 'iv', 12), base64urlToBytes(envelope.ct, 'ct'), CONTENT_AAD);
  let json: unknown;
  try {
    json = JSON.parse(utf8Decode(plaintext, 'payload'));
  } catch {
    throw new FormatError('the sealed payload is not JSON');
  }
  const payload = ZSealedPayload.safeParse(json);
  if (!payload.success) throw new FormatError(`the sealed payload is not valid: ${issue(payload.error)}`);
  return { payload: payload.data, contentKey };
}

/** openEnvelope without the content key, for text-only use. */
export async function openMessage(input: string | unknown, reader: { kid: string; privateKey: CryptoKey }): Promise<TSealedPayload> {
  return (await openEnvelope(input, reader)).payload;
}

/** Seals a message's audio with its content key (AAD E2EE_AUDIO_AAD); put bytesToBase64url(iv) in payload.audio.iv. */
export async function sealAudio(contentKey: CryptoKey, audio: Uint8Array): Promise<AesGcmSealed> {
  return aesGcmEncrypt(contentKey, audio, AUDIO_AAD);
}

/** Opens the audio with the content key from openEnvelope and payload.audio.iv; TamperedError if altered. */
export async function openAudio(contentKey: CryptoKey, iv: Uint8Array | string, ciphertext: Uint8Array): Promise<Bytes> {
  const ivBytes = typeof iv === 'string' ? base64urlToBytes(iv, 'audio.iv', 12) : iv;
  return aesGcmDecrypt(contentKey, ivBytes, ciphertext, AUDIO_AAD);
}
