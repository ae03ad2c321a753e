/**
 * The shapes the Developer page works with: the worker's developer and webhooks contracts
 * (docs/product.md "Developer API and webhooks"; docs/api.md). The components take these as props, so they are
 * tested without a server.
 */
export { API_SCOPES, API_KEY_NAME_MAX, API_SCOPE_DESCRIPTIONS, type ApiScope } from '@afterword/worker/contracts/developer';
export { decodeWebhookSecret, WEBHOOK_EVENTS, type WebhookEvent } from '@afterword/worker/contracts/webhooks';
import type { TApiKey, TCreateApiKeyInput, TCreatedApiKey } from '@afterword/worker/contracts/developer';
import type { TWebhookAttempt, TWebhookCreated, TWebhookView } from '@afterword/worker/contracts/webhooks';
import type { ApiScope } from '@afterword/worker/contracts/developer';
import type { WebhookEvent } from '@afterword/worker/contracts/webhooks';

/** GET /api/developer/keys: never the key itself, only its first characters. */
export type ApiKey = TApiKey;
/** POST /api/developer/keys: the only answer that carries `key`. */
export type CreatedKey = TCreatedApiKey;
export interface CreateKeyInput extends TCreateApiKeyInput {
  name: string;
  scopes: ApiScope[];
  sandbox: boolean;
}

/** A listed endpoint: `hmac_secret` masked (`whsec_…abcd`). */
export type WebhookEndpoint = TWebhookView;
/** The create answer: `hmac_secret` whole, this once. */
export type CreatedWebhook = TWebhookCreated;
export interface CreateWebhookInput {
  url: string;
  event: WebhookEvent;
  hmac_secret?: string;
  retry: boolean;
  /** Set by the create (lib/create-retry-keys.ts): the same endpoint sent again after a failure is written once. */
  idempotency_key?: string | null;
}
/** One delivery attempt of one event to one endpoint; `message_id` is the `webhook-id` header. */
export type WebhookAttempt = TWebhookAttempt;
