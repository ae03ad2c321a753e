import type { Bindings } from '../../env';
import { isNonPublicAddress } from './private-address';
import { allowsPrivateWebhookUrls, webhookEnv } from './settings';

/** DNS over HTTPS, JSON form (`application/dns-json`); production default, overridable for tests. */
export const DEFAULT_DOH_URL = 'https://cloudflare-dns.com/dns-query';
const DOH_TIMEOUT_MS = 3_000;
const TYPE = { A: 1, AAAA: 28 } as const;

export type HostCheck = { ok: true; addresses: string[] } | { ok: false; reason: string; retryable: boolean };

interface DohAnswer {
  name: string;
  type: number;
  data: string;
}

/**
 * The name check (url-guard.ts) cannot see where a name leads: `localtest.me`, `lvh.me`,
 * `7f000001.nip.io` and a rebinding name look public and resolve to loopback or a private network. So
 * before every production attempt the host is resolved over DNS-over-HTTPS (A and AAAA, following
 * CNAMEs as the resolver does) and the attempt is refused when ANY answer is not a public address.
 * A lookup that fails is retryable; a private answer is not. Outside production, with
 * WEBHOOK_ALLOW_PRIVATE_URLS=true, nothing is resolved (local receivers are the point there).
 *
 * What remains (docs/decisions/webhooks.md): the platform's own lookup for `fetch` happens a moment
 * later and could get a different answer from a name with a zero TTL.
 */
export async function checkResolvedHost(host: string, env: Bindings): Promise<HostCheck> {
  if (allowsPrivateWebhookUrls(env)) return { ok: true, addresses: [] };
  const resolver = webhookEnv(env).WEBHOOK_DOH_URL || DEFAULT_DOH_URL;
  let answers: DohAnswer[];
  try {
    const [a, aaaa] = await Promise.all([lookup(resolver, host, 'A'), lookup(resolver, host, 'AAAA')]);
    if (a.status === 3 && aaaa.status === 3) return { ok: false, reason: `${host} does not exist (NXDOMAIN)`, retryable: true };
    if (a.status !== 0 && a.status !== 3) return { ok: false, reason: `DNS lookup of ${host} failed (status ${a.status})`, retryable: true };
    answers = [...a.answers, ...aaaa.answers];
  } catch (err) {
    return { ok: false, reason: `DNS lookup of ${host} failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200), retryable: true };
  }
  const addresses = answers.filter((r) => r.type === TYPE.A || r.type === TYPE.AAAA).map((r) => r.data);
  if (addresses.length === 0) return { ok: false, reason: `${host} has no address`, retryable: true };
  const blocked = addresses.find(isNonPublicAddress);
  if (blocked) return { ok: false, reason: `url resolves to a non-public address (${blocked})`, retryable: false };
  return { ok: true, addresses };
}

async function lookup(resolver: string, name: string, type: keyof typeof TYPE): Promise<{ status: number; answers: DohAnswer[] }> {
  const url = new URL(resolver);
  url.searchParams.set('name', name);
  url.searchParams.set('type', type);
  const res = await fetch(url, { headers: { accept: 'application/dns-json' }, signal: AbortSignal.timeout(DOH_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`resolver answered HTTP ${res.status}`);
  const body = (await res.json()) as { Status?: number; Answer?: DohAnswer[] };
  return { status: body.Status ?? 2, answers: Array.isArray(body.Answer) ? body.Answer : [] };
}
