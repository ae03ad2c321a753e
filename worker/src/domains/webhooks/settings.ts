import { isProduction, type Bindings } from '../../env';

/**
 * The webhooks' settings, read here rather than declared in env.ts:
 * - `WEBHOOK_SECRET_KEY` (secret): derives the key that encrypts signing secrets at rest (secret.ts).
 *   Required in production; a fixed development key is used elsewhere when unset.
 * - `WEBHOOK_ALLOW_PRIVATE_URLS` (wrangler.toml [vars], "true" for local development): when exactly
 *   "true" and APP_ENV is not "production", endpoint URLs may use http, IP literals, loopback and private
 *   hosts, so a developer running `npm start` can receive webhooks on their own machine. Production
 *   ignores it and always applies the SSRF rules (url-guard.ts).
 */
export interface WebhookEnv {
  WEBHOOK_SECRET_KEY?: string;
  WEBHOOK_ALLOW_PRIVATE_URLS?: string;
  /** DNS-over-HTTPS JSON endpoint used to resolve webhook hosts before each production attempt (dns-guard.ts). */
  WEBHOOK_DOH_URL?: string;
}

export function webhookEnv(env: Bindings): WebhookEnv {
  const raw = env as unknown as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    WEBHOOK_SECRET_KEY: str(raw.WEBHOOK_SECRET_KEY),
    WEBHOOK_ALLOW_PRIVATE_URLS: str(raw.WEBHOOK_ALLOW_PRIVATE_URLS),
    WEBHOOK_DOH_URL: str(raw.WEBHOOK_DOH_URL),
  };
}

/** Private and plain-http URLs: only outside production, and only when the setting is "true". */
export const allowsPrivateWebhookUrls = (env: Bindings) => !isProduction(env) && webhookEnv(env).WEBHOOK_ALLOW_PRIVATE_URLS?.trim().toLowerCase() === 'true';
