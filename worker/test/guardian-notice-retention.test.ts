import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Channels } from '../src/channels/registry';
import { sendGuardianNotice } from '../src/domains/guardian/guardian-notices';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { invitationToken } from './helpers/guardian';

/**
 * A guardian's notice keeps its subject, not its body, once a channel took it (docs/decisions/notifications.md
 * "A sent notice keeps its subject, not its body"): for an invitation, its accept link with it.
 */
const noticesOf = (guardianId: string) =>
  env.DB.prepare('SELECT id, status, subject, text FROM guardian_notices WHERE guardian_id = ?')
    .bind(guardianId)
    .all<{ id: string; status: string; subject: string; text: string }>()
    .then((r) => r.results);

/** An email provider that is down: every send is a retryable failure. */
const down: Channels = {
  transports: { email: 'test', sms: 'test', call: 'test', push: 'test' },
  email: async () => ({ ok: false, retryable: true, error: 'mail server down' }),
  sms: async () => ({ ok: false, retryable: true, error: 'down' }),
  call: async () => ({ ok: false, retryable: true, error: 'down' }),
  push: async () => ({ ok: false, retryable: true, error: 'down' }),
};

describe("a guardian's invitation", () => {
  it('keeps its accept link while no channel has taken it, and once sent keeps only its subject: the token is nowhere in D1 but its hash', async () => {
    const [owner, guardian] = await Promise.all([signedInUser(), signedInUser()]);
    const invited = await api('POST', '/api/guardian/assign', { token: owner.token, json: { email: guardian.email, consent: true } });
    expect(invited.status).toBe(201);
    const [notice] = await noticesOf(invited.data.id);

    await expect(sendGuardianNotice(servicesAt(Date.now()), notice!.id, down)).rejects.toThrow(/not delivered/);
    const waiting = (await noticesOf(invited.data.id))[0]!;
    expect(waiting.status).toBe('pending');
    expect(waiting.text).toMatch(/\/guardian\/accept\/[A-Za-z0-9_-]{43}/);

    expect(await sendGuardianNotice(servicesAt(Date.now()), notice!.id)).toBe('sent');
    const token = await invitationToken(guardian.email);
    expect(await noticesOf(invited.data.id)).toEqual([
      { id: notice!.id, status: 'sent', subject: `${owner.email} asks you to be their guardian on Afterword`, text: '' },
    ]);
    const holding = await env.DB.prepare('SELECT count(*) AS n FROM guardian_notices WHERE text LIKE ?').bind(`%${token}%`).first<{ n: number }>();
    expect(holding!.n).toBe(0);
    // The link the email carried still works.
    expect((await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token } })).status).toBe(200);
  });
});
