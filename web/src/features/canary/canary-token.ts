/** docs/product.md "Canaries and check-ins": the canary token returned on creation is cached in local storage. */
export const CANARY_TOKEN_KEY = 'canaryToken';

export function cacheCanaryToken(token: string): void {
  localStorage.setItem(CANARY_TOKEN_KEY, token);
}

export function pingUrl(origin: string, token: string): string {
  return `${origin}/api/ping/${token}`;
}

export function curlExample(origin: string, token: string): string {
  return `curl -X POST ${pingUrl(origin, token)}`;
}
