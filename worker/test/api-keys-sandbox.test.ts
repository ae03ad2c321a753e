import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { API_SCOPES } from '../src/contracts/developer';
import { ROUTE_DOCS } from '../src/openapi/routes';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';
import { createMessageFor } from './helpers/messages';
import { endpointFor } from './helpers/webhooks';

/**
 * Rows that mean something left (or was queued to leave) through a channel or a webhook. A sandbox death
 * report's notices are shown in the local outbox only (`outbox_only`, subject "[Sandbox] …"): the
 * rehearsal the sandbox promises, never a real send, so they are counted apart.
 */
async function outgoing() {
  const count = async (table: string, where = '1') => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).first<{ n: number }>())!.n;
  return {
    outbox: await count('outbox_messages', "subject NOT LIKE '[Sandbox]%'"),
    deliveries: await count('deliveries'),
    webhooks: await count('webhook_deliveries'),
    notices: await count('owner_notices', 'outbox_only = 0'),
  };
}

describe('sandbox keys', () => {
  it('a sandbox key with every scope, calling every route a key may call, makes nothing leave but sandbox-marked webhook events', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    await env.DB.prepare("UPDATE users SET plan = 'immortality' WHERE id = ?").bind(owner.id).run();
    await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const hook = await endpointFor(owner, 'sandbox-every-route');
    // A message that a key could try to reach (scheduled for tomorrow, so nothing is due on its own).
    const message = await createMessageFor(owner.token, { recipient_user_id: recipient.id, deliver_at: new Date(Date.now() + 86_400_000).toISOString() });
    const created = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'sandbox', scopes: [...API_SCOPES], sandbox: true } });
    expect(created.status).toBe(201);
    expect(created.data.key).toMatch(/^afw_test_/);

    const before = await outgoing();
    const keyRoutes = ROUTE_DOCS.filter((r) => r.auth === 'session-or-key');
    expect(keyRoutes.length).toBeGreaterThan(0);
    for (const route of keyRoutes) {
      const path = route.path.replace(/\{[^}]+\}/g, message.id);
      const method = route.method.toUpperCase();
      const res = await api(method, path, { token: created.data.key, json: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.status, `${method} ${path}`).not.toBe(401);
      expect(res.status, `${method} ${path}`).not.toBe(500);
    }
    // And the routes that would send are closed to every key, sandbox or not.
    expect((await api('POST', `/api/messages/deliver/${message.id}`, { token: created.data.key })).status).toBe(403);
    expect(
      (await api('POST', '/api/developer/webhooks', { token: created.data.key, json: { url: 'http://127.0.0.1:9/x', event: 'missed_checkins', retry: false } }))
        .status,
    ).toBe(403);
    // The one thing a sandbox key can make leave: simulated events to the owner's own endpoint, each marked.
    const events = await env.DB.prepare('SELECT event_id, payload FROM webhook_deliveries WHERE webhook_id = ?')
      .bind(hook.id)
      .all<{ event_id: string; payload: string }>();
    expect(events.results.length).toBeGreaterThan(0);
    for (const e of events.results) {
      expect(e.event_id).toMatch(/^sandbox:/);
      expect(JSON.parse(e.payload).data.sandbox).toBe(true);
    }
    expect(await outgoing()).toEqual({ ...before, webhooks: before.webhooks + events.results.length });
    // The death report ran as a rehearsal: its notice is outbox-only, and nobody is marked dead.
    const rehearsal = await env.DB.prepare("SELECT outbox_only, subject FROM owner_notices WHERE user_id = ? AND kind = 'death_reported'")
      .bind(owner.id)
      .all<{ outbox_only: number; subject: string }>();
    expect(rehearsal.results).toEqual([{ outbox_only: 1, subject: expect.stringMatching(/^\[Sandbox\]/) }]);
    expect(await env.DB.prepare('SELECT death_confirmed_at FROM users WHERE id = ?').bind(owner.id).first('death_confirmed_at')).toBeNull();
  });
});
