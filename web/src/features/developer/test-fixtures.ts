import type { ApiKey, CreatedKey, CreatedWebhook, WebhookAttempt, WebhookEndpoint } from './types';

export const KEY_SECRET = 'afw_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345Xy12Zq';

export function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    client_name: 'Home automation',
    scopes: ['read:canary'],
    usage_count: 0,
    last_used_at: null,
    sandbox: true,
    created_at: '2026-05-14T09:00:00Z',
    prefix: 'afw_test_AbCd',
    ...overrides,
  };
}

export const createdKey = (overrides: Partial<CreatedKey> = {}): CreatedKey => ({ ...apiKey(), key: KEY_SECRET, ...overrides });

export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export function webhook(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    url: 'https://example.com/hooks/afterword',
    event: 'missed_checkins',
    retry: true,
    hmac_secret: 'whsec_…LaSw',
    status: 'active',
    disabled_reason: null,
    disabled_at: null,
    sandbox: false,
    created_at: '2026-05-14T09:00:00Z',
    ...overrides,
  };
}

export const createdWebhook = (overrides: Partial<CreatedWebhook> = {}): CreatedWebhook => ({ ...webhook(), hmac_secret: WEBHOOK_SECRET, ...overrides });

export function attempt(overrides: Partial<WebhookAttempt> = {}): WebhookAttempt {
  return {
    id: 'a1',
    webhook_id: '22222222-2222-4222-8222-222222222222',
    event: 'missed_checkins',
    message_id: 'msg_first',
    attempt: 1,
    status_code: 200,
    success: true,
    duration_ms: 182,
    error: null,
    origin: 'event',
    created_at: '2026-05-14T09:00:00Z',
    ...overrides,
  };
}
