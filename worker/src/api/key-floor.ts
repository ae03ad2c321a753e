/**
 * A floor under the route registry, never a grant: whatever a route's entry says, API keys never reach key
 * management, webhooks, sign-in and sessions, the profile, E2EE key bundles, account deletion and data
 * rights. The key policy (worker/src/wiring/api-key-policy.ts) refuses them with 403, and the OpenAPI
 * document (worker/src/openapi/document.ts) declares that 403 on those paths, public ones included.
 */
const MANAGEMENT_PREFIXES = ['/api/developer', '/api/auth', '/api/account', '/api/profile', '/api/keys', '/api/legal'];

export const isManagementPath = (path: string) => MANAGEMENT_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
