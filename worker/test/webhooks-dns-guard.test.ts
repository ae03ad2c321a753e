import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { checkResolvedHost } from '../src/domains/webhooks/dns-guard';
import { isNonPublicAddress } from '../src/domains/webhooks/private-address';

const production = () => ({ ...env, APP_ENV: 'production', WEBHOOK_DOH_URL: inject('dohResolver').url }) as unknown as Env;

describe('webhook hosts are resolved before a production attempt', () => {
  it.each([
    ['localtest.me', '127.0.0.1'],
    ['lvh.me', '127.0.0.1'],
    ['7f000001.nip.io', '127.0.0.1'],
    ['rebind.attacker.example.com', '10.0.0.7'],
    ['metadata.attacker.example.com', '169.254.169.254'],
    ['v6-loopback.attacker.example.com', '::1'],
    ['mapped.attacker.example.com', '::ffff:192.168.1.1'],
    ['mixed.attacker.example.com', '192.168.0.10'],
    ['cname.attacker.example.com', '172.16.5.5'],
  ])('refuses %s, which resolves to %s', async (host, address) => {
    expect(await checkResolvedHost(host, production())).toEqual({ ok: false, reason: `url resolves to a non-public address (${address})`, retryable: false });
  });

  it('allows a name whose every address is public', async () => {
    expect(await checkResolvedHost('hooks.public.example.com', production())).toEqual({
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });
  });

  it('treats a name that does not resolve, or a resolver that fails, as a retryable refusal', async () => {
    expect(await checkResolvedHost('nowhere.example.org', production())).toMatchObject({
      ok: false,
      retryable: true,
      reason: 'nowhere.example.org does not exist (NXDOMAIN)',
    });
    const broken = { ...production(), WEBHOOK_DOH_URL: 'http://127.0.0.1:1/dns-query' } as unknown as Env;
    expect(await checkResolvedHost('hooks.public.example.com', broken)).toMatchObject({ ok: false, retryable: true });
  });

  it('resolves nothing locally, where WEBHOOK_ALLOW_PRIVATE_URLS=true lets developers use their own machine', async () => {
    const local = { ...env, APP_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_DOH_URL: 'http://127.0.0.1:1/unreachable' } as unknown as Env;
    expect(await checkResolvedHost('localtest.me', local)).toEqual({ ok: true, addresses: [] });
  });
});

describe('non-public addresses', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::10.0.0.1',
    '2002:c0a8:0101::1',
    '::127.0.0.1',
    'not an address',
  ])('%s is refused', (ip) => expect(isNonPublicAddress(ip)).toBe(true));

  it.each([
    ['3fff::1', 'documentation (RFC 9637)'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (RFC 8215)'],
    ['::ffff:0:a00:1', 'IPv4-translated (RFC 6145)'],
    ['192.175.48.1', 'AS112'],
    ['0177.0.0.1', 'an octal-looking IPv4 spelling'],
  ])('%s (%s) is refused too: special-purpose ranges from ipaddr.js, not only the common ones', (ip) => expect(isNonPublicAddress(ip)).toBe(true));

  it.each(['93.184.216.34', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34', '64:ff9b::8.8.8.8'])('%s is public', (ip) =>
    expect(isNonPublicAddress(ip)).toBe(false),
  );
});
