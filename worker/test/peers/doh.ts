import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * A DNS-over-HTTPS resolver speaking the JSON API that Cloudflare and Google serve
 * (`GET /dns-query?name=…&type=A|AAAA`, `accept: application/dns-json` → `{Status, Answer: [{name,
 * type, TTL, data}]}`), answering from a fixed zone of names that look public and are not: the names
 * a black-box probe slipped past the webhook name check. `Status` 3 is NXDOMAIN.
 */
declare module 'vitest' {
  interface ProvidedContext {
    dohResolver: { url: string };
  }
}

type Record = { type: 1 | 5 | 28; data: string };
export const DOH_ZONE: { [name: string]: Record[] } = {
  'localtest.me': [{ type: 1, data: '127.0.0.1' }],
  'lvh.me': [{ type: 1, data: '127.0.0.1' }],
  '7f000001.nip.io': [{ type: 1, data: '127.0.0.1' }],
  'rebind.attacker.example.com': [{ type: 1, data: '10.0.0.7' }],
  'metadata.attacker.example.com': [{ type: 1, data: '169.254.169.254' }],
  'v6-loopback.attacker.example.com': [{ type: 28, data: '::1' }],
  'mapped.attacker.example.com': [{ type: 28, data: '::ffff:192.168.1.1' }],
  'mixed.attacker.example.com': [
    { type: 1, data: '93.184.216.34' },
    { type: 1, data: '192.168.0.10' },
  ],
  'cname.attacker.example.com': [
    { type: 5, data: 'internal.attacker.example.com.' },
    { type: 1, data: '172.16.5.5' },
  ],
  'hooks.public.example.com': [
    { type: 1, data: '93.184.216.34' },
    { type: 28, data: '2606:2800:220:1:248:1893:25c8:1946' },
  ],
};

export async function startDohResolver(project: TestProject) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://resolver');
    const name = (url.searchParams.get('name') ?? '').replace(/\.$/, '').toLowerCase();
    const type = url.searchParams.get('type') === 'AAAA' ? 28 : 1;
    const records = DOH_ZONE[name];
    const body = records
      ? { Status: 0, Answer: records.filter((r) => r.type === type || r.type === 5).map((r) => ({ name, type: r.type, TTL: 0, data: r.data })) }
      : { Status: 3 };
    res.writeHead(200, { 'content-type': 'application/dns-json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('dohResolver', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dns-query` });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
