/**
 * Whether an address the webhook host resolves to leads somewhere a webhook must never go: loopback,
 * private (RFC 1918, unique-local), shared (CGNAT), link-local (cloud metadata lives at 169.254.169.254
 * and fd00:ec2::254), multicast, reserved, documentation and benchmarking ranges, and IPv6 forms that
 * carry an IPv4 address inside them (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96) judged by that address.
 */
export function isNonPublicAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4) return isNonPublicIPv4(v4);
  const v6 = parseIPv6(ip);
  if (!v6) return true; // unreadable: refuse
  return isNonPublicIPv6(v6);
}

/** [network, prefix length] */
const V4_BLOCKED: [number[], number][] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

function parseIPv4(ip: string): number[] | null {
  const m = ip.trim().match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

const toInt = (a: number[]) => ((a[0]! << 24) | (a[1]! << 16) | (a[2]! << 8) | a[3]!) >>> 0;

function isNonPublicIPv4(a: number[]): boolean {
  const n = toInt(a);
  return V4_BLOCKED.some(([net, len]) => len === 0 || n >>> (32 - len) === toInt(net) >>> (32 - len));
}

/** Eight 16-bit groups, or null. Accepts `::` and an embedded dotted IPv4 tail. */
function parseIPv6(ip: string): number[] | null {
  let s = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!;
  const tail4 = s.match(/:(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (tail4) {
    const v4 = parseIPv4(tail4[1]!);
    if (!v4) return null;
    s = `${s.slice(0, -tail4[1]!.length)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

function isNonPublicIPv6(g: number[]): boolean {
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded4 = () => [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff];
  if (zeroPrefix(8)) return true; // ::
  if (zeroPrefix(7) && g[7] === 1) return true; // ::1
  if (zeroPrefix(5) && g[5] === 0xffff) return isNonPublicIPv4(embedded4()); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isNonPublicIPv4(embedded4()); // NAT64
  if (zeroPrefix(6)) return true; // deprecated IPv4-compatible ::a.b.c.d
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique-local (fd00:ec2::254 metadata)
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (first === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return true; // discard-only 100::/64
  if (first === 0x2002) return isNonPublicIPv4([g[1]! >> 8, g[1]! & 0xff, g[2]! >> 8, g[2]! & 0xff]); // 6to4 wraps an IPv4
  return false;
}
