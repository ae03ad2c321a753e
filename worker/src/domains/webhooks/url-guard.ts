import type { Bindings } from '../../env';
import { allowsPrivateWebhookUrls } from './settings';

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** Exact host names that lead inside a network or to a cloud metadata service. */
const BLOCKED_HOSTS = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'broadcasthost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'kubernetes.default',
]);

/** Suffixes of names that are private by convention or by RFC (6761, 6762, 8375) and `.arpa` reverse zones. */
const BLOCKED_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.localdomain',
  '.home.arpa',
  '.arpa',
  '.lan',
  '.intranet',
  '.corp',
  '.private',
  '.test',
  '.invalid',
  '.example',
];

/**
 * The SSRF guard of webhook URLs (docs/server-rules.md "Developer platform"), run when an endpoint is created
 * (422) and again before every send. With the production rules: https only, port 443 (or none), no user or
 * password in the URL, no IP literal in any form (IPv4 dotted, decimal `2130706433`, hex `0x7f000001`, short
 * `127.1`, IPv6 `[::1]` — WHATWG URL parsing turns the numeric IPv4 forms into dotted quads, and any
 * all-numeric or hex last label counts too), no single-label, loopback, private-suffix or metadata host names, and no
 * wildcard-DNS names embedding an IPv4 address (`10.0.0.1.nip.io`, `10-0-0-1.sslip.io`). Redirects are never
 * followed when sending (send.ts), so an allowed URL cannot bounce to an internal one.
 *
 * Outside production, with WEBHOOK_ALLOW_PRIVATE_URLS = "true", only the scheme (http or https) and the
 * absence of credentials are checked.
 */
export function checkWebhookUrl(raw: string, env: Bindings): UrlCheck {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'url must be an absolute URL' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, reason: 'url must be an http(s) URL' };
  if (u.username || u.password) return { ok: false, reason: 'url must not contain a user name or password' };
  if (allowsPrivateWebhookUrls(env)) return { ok: true, url: u.href };

  if (u.protocol !== 'https:') return { ok: false, reason: 'url must use https' };
  if (u.port && u.port !== '443') return { ok: false, reason: 'url must use the default https port (443)' };
  const host = u.hostname.toLowerCase();
  if (host.startsWith('[') || host.includes(':')) return { ok: false, reason: 'url must use a host name, not an IP address' };
  const name = host.replace(/\.+$/, '');
  if (!name) return { ok: false, reason: 'url must have a host name' };
  const labels = name.split('.');
  const last = labels.at(-1)!;
  if (/^\d+(\.\d+){3}$/.test(name) || /^(0x[0-9a-f]*|\d+)$/i.test(last)) return { ok: false, reason: 'url must use a host name, not an IP address' };
  if (labels.length < 2) return { ok: false, reason: 'url must use a public, fully qualified host name' };
  if (BLOCKED_HOSTS.has(name) || BLOCKED_SUFFIXES.some((s) => name.endsWith(s)))
    return { ok: false, reason: 'url must not point at a local, internal or metadata host' };
  if (/(^|\.)\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(\.|$)/.test(name) || labels.some((l) => /^\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}$/.test(l))) {
    return { ok: false, reason: 'url must not embed an IP address in its host name' };
  }
  return { ok: true, url: u.href };
}
