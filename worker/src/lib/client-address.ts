import { isProduction, type Bindings } from '../env';

/** Every client of a local `wrangler dev` (bound to 127.0.0.1) is this one machine. */
export const LOCAL_CLIENT = 'local';

/**
 * The address limits are keyed by. In production Cloudflare's edge sets CF-Connecting-IP and
 * overwrites any value a client sent, so it is trusted. Locally wrangler dev only fills the header
 * when the client did not send one, so a client could pick its own address and slip past the
 * per-address limits: there every request counts as the one local client, unless the test harness
 * sets TRUST_CF_CONNECTING_IP=true to play many clients (worker/vitest.config.mts).
 */
export function clientAddress(env: Pick<Bindings, 'APP_ENV' | 'TRUST_CF_CONNECTING_IP'>, header: string | undefined): string {
  if (!isProduction(env) && env.TRUST_CF_CONNECTING_IP !== 'true') return LOCAL_CLIENT;
  if (!header) return 'unknown';
  return header.includes(':') ? ipv6Prefix64(header) : header.trim();
}

/**
 * One IPv6 subscriber usually holds a whole /64 and can rotate through it freely, so limits count the
 * /64 (`2001:db8:1:2::/64`), not the address.
 */
export function ipv6Prefix64(address: string): string {
  const bare = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!;
  const [head = '', tail] = bare.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const groups = tail === undefined ? headParts : [...headParts, ...Array(Math.max(0, 8 - headParts.length - tailParts.length)).fill('0'), ...tailParts];
  const first4 = groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16));
  return `${first4.join(':')}::/64`;
}
