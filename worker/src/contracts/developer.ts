import { z } from 'zod';

/** API key scopes (docs/product.md "Developer API and webhooks", docs/server-rules.md "Developer platform"). */
export const API_SCOPES = ['read:canary', 'read:messages', 'create:vault', 'webhook:death-verification'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_KEY_NAME_MAX = 100;

/** What each scope opens, as the Developer page explains it (no final period). */
export const API_SCOPE_DESCRIPTIONS: Record<ApiScope, string> = {
  'read:canary': 'Read your canaries and their status',
  'read:messages': 'Read your messages, their status and delivery logs',
  'create:vault': 'Store encrypted vault files and give them to people',
  'webhook:death-verification': "Report your death from an executor's system (opens the veto window; a check-in refutes it)",
};
/** Active (unrevoked) keys one account may hold at once. */
export const MAX_ACTIVE_API_KEYS = 25;

/** Key format (docs/decisions/api-keys.md): prefix + 32 random base62 + 6 base62 checksum characters. */
export const API_KEY_LIVE_PREFIX = 'afw_live_';
export const API_KEY_TEST_PREFIX = 'afw_test_';
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_LIVE_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH;

/** POST /api/developer/keys (`developer.keys.create`). */
export const ZCreateApiKeyInput = z.object({
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, { message: 'name must not be empty' })
    .max(API_KEY_NAME_MAX, { message: `name must be at most ${API_KEY_NAME_MAX} characters` }),
  scopes: z
    .array(z.enum(API_SCOPES, { message: `each scope must be one of ${API_SCOPES.join(', ')}` }), { message: 'scopes must be a list' })
    .min(1, { message: 'choose at least one scope' })
    .max(API_SCOPES.length * 2, { message: 'list each scope once' }),
  sandbox: z.boolean({ message: 'sandbox must be true or false' }).default(false),
});
export type TCreateApiKeyInput = z.input<typeof ZCreateApiKeyInput>;

/** DELETE /api/developer/keys/{id} (`developer.keys.revoke`). */
export const ZApiKeyId = z.object({ id: z.string().uuid({ message: 'Not an API key id' }) });

/** One key as GET /api/developer/keys lists it: never the key or its hash. */
export const ZApiKey = z.object({
  id: z.string(),
  client_name: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  usage_count: z.number().int(),
  last_used_at: z.string().nullable(),
  sandbox: z.boolean(),
  created_at: z.string(),
  /** `afw_live_AbCd`: the key's start, to recognise it (the web app shows it followed by "…"). */
  prefix: z.string(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

/** POST /api/developer/keys answer: the key itself, shown this once. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

export const ZApiKeyList = z.array(ZApiKey);

export const ZRevokedApiKey = z.object({ id: z.string(), revoked_at: z.string() });
export type TRevokedApiKey = z.infer<typeof ZRevokedApiKey>;
