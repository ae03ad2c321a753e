import type { Bindings } from '../../env';
import { AppError } from '../../lib/errors';
import { fromBase64Url, toBase64, toBase64Url } from '../../lib/encoding';
import { WEBHOOK_SECRET_GENERATED_BYTES } from '../../contracts/webhooks';
import { isProduction } from '../../env';
import { webhookEnv } from './settings';

/**
 * Webhook signing secrets at rest. A secret must stay usable to sign, so it cannot be hashed like API keys
 * or session tokens: it is encrypted with AES-GCM-256 under a key derived (HKDF-SHA256) from the
 * WEBHOOK_SECRET_KEY Worker secret, with the webhook's id as additional data (a ciphertext copied to another
 * row does not open). Outside production a fixed development key is used when the secret is not set, like
 * the canary token secret; production refuses to run without it. Rotating WEBHOOK_SECRET_KEY makes stored
 * secrets unreadable (their endpoints must be re-created): docs/decisions/webhooks.md.
 *
 * Stored form: `v1.<iv base64url>.<ciphertext+tag base64url>`.
 */
const DEV_KEY = 'afterword-local-development-webhook-secret-key';
const HKDF_SALT = new TextEncoder().encode('afterword webhook secrets v1');
const HKDF_INFO = new TextEncoder().encode('aes-256-gcm');

function masterSecret(env: Bindings): string {
  const configured = webhookEnv(env).WEBHOOK_SECRET_KEY;
  if (configured) return configured;
  if (!isProduction(env)) return DEV_KEY;
  throw new AppError('INTERNAL', 'WEBHOOK_SECRET_KEY is not configured');
}

const keys = new Map<string, Promise<CryptoKey>>();
function aesKey(master: string): Promise<CryptoKey> {
  let key = keys.get(master);
  if (!key) {
    key = (async () => {
      const ikm = await crypto.subtle.importKey('raw', new TextEncoder().encode(master), 'HKDF', false, ['deriveKey']);
      return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: HKDF_INFO }, ikm, { name: 'AES-GCM', length: 256 }, false, [
        'encrypt',
        'decrypt',
      ]);
    })();
    keys.set(master, key);
  }
  return key;
}

export async function encryptWebhookSecret(env: Bindings, webhookId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(webhookId) },
    await aesKey(masterSecret(env)),
    new TextEncoder().encode(secret),
  );
  return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ct))}`;
}

/** The secret, or null when it does not open (another key, another row, tampered). */
export async function decryptWebhookSecret(env: Bindings, webhookId: string, stored: string): Promise<string | null> {
  const [version, iv, ct] = stored.split('.');
  if (version !== 'v1' || !iv || !ct) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: new TextEncoder().encode(webhookId) },
      await aesKey(masterSecret(env)),
      fromBase64Url(ct),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/** `whsec_` + standard base64 (with padding) of 32 random bytes. */
export const generateWebhookSecret = () => `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(WEBHOOK_SECRET_GENERATED_BYTES)))}`;

/** What lists show: `whsec_…` and the last 4 characters. */
export const secretHint = (secret: string) => secret.slice(-4);
export const maskedSecret = (hint: string) => `whsec_…${hint}`;
