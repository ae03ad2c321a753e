import ipaddr from 'ipaddr.js';

/**
 * Whether an address the webhook host resolves to leads somewhere a webhook must never go. The ranges are
 * ipaddr.js's table (its `range()`): only plain `unicast` is public, so loopback, private (RFC 1918,
 * unique-local), shared (CGNAT), link-local (cloud metadata lives at 169.254.169.254 and fd00:ec2::254),
 * multicast, reserved, documentation, benchmarking and every other special-purpose range are refused.
 * IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are
 * judged by that address; the deprecated IPv4-compatible ::a.b.c.d, which ipaddr.js calls unicast, is refused.
 * Only dotted-quad IPv4 is read (what DNS answers carry): other spellings are unreadable, and refused.
 */
export function isNonPublicAddress(raw: string): boolean {
  const ip = raw.trim().replace(/^\[|\]$/g, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return isNonPublicIPv4(ipaddr.IPv4.parse(ip));
  if (!ipaddr.IPv6.isValid(ip)) return true; // unreadable: refuse
  const v6 = ipaddr.IPv6.parse(ip);
  const g = v6.parts;
  const v4In = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (v6.range() as string) {
    case 'unicast':
      return g.slice(0, 6).every((x) => x === 0);
    case 'ipv4Mapped':
      return isNonPublicIPv4(v6.toIPv4Address());
    case 'rfc6052': // only the well-known NAT64 prefix; 64:ff9b:1::/48 is for local use
      return !(g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) || isNonPublicIPv4(v4In(g[6]!, g[7]!));
    case '6to4':
      return isNonPublicIPv4(v4In(g[1]!, g[2]!));
    default:
      return true;
  }
}

const isNonPublicIPv4 = (v4: ipaddr.IPv4) => v4.range() !== 'unicast';
