import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { CanaryNoticeJob } from '../src/contracts/jobs';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { describeCheckInLink, issueCheckInLink, redeemCheckInLink } from '../src/domains/canary/check-in-links';
import { sendCanaryNotice } from '../src/domains/owner-notices/canary-notices';
import { fromBase64Url, toBase64Url } from '../src/lib/encoding';
import { hashSecret } from '../src/lib/secrets';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { captureJobs, createCanaryFor, noQuietHours, servicesAt } from './helpers/canary';

/**
 * A canary warning's one-tap link (docs/decisions/check-in-links.md): the owner checks in from the warning
 * without signing in; reading the link never checks in; each link works once and expires.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A link's token as a warning carries it: signed, 58 bytes in base64url. */
const LINK = /\/check-in\/([A-Za-z0-9_-]{78})/;

/** An owner with a one-hour canary whose grace reminder has just been sent to the local outbox. */
async function ownerWarned() {
  const owner = await signedInUser();
  await noQuietHours(owner.id);
  const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Daily' });
  const graceStart = Date.parse(canary.last_check_in) + 0.8 * HOUR;
  const { sent } = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
  const job = sent.find((j) => (j as CanaryNoticeJob).type === 'canary_notice') as CanaryNoticeJob;
  expect(job.kind).toBe('grace_reminder');
  expect(await sendCanaryNotice(servicesAt(graceStart), job)).toBe('sent');
  const mail = await env.DB.prepare("SELECT text, link FROM outbox_messages WHERE recipient_user_id = ? AND channel = 'email' ORDER BY created_at DESC LIMIT 1")
    .bind(owner.id)
    .first<{ text: string; link: string }>();
  const token = LINK.exec(mail?.text ?? '')?.[1];
  expect(token, `the warning carries a check-in link: ${mail?.text}`).toBeTruthy();
  return { owner, canary, job, token: token!, mail: mail!, graceStart };
}

const lastCheckInOf = async (canaryId: string) =>
  (await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canaryId).first<{ last_check_in: number }>())!.last_check_in;

describe("a canary warning's check-in link", () => {
  it('is in the warning the owner receives, and is its link too', async () => {
    const { mail, token } = await ownerWarned();
    expect(mail.text).toMatch(/Check in with one tap: https?:\/\/\S+\/check-in\/[A-Za-z0-9_-]{78}/);
    expect(mail.link).toMatch(new RegExp(`/check-in/${token}$`));
  });

  it('is not stored: the notice keeps the Canary Status link, and D1 holds nothing of it until it is pressed', async () => {
    const { canary, job, token } = await ownerWarned();
    const notice = await env.DB.prepare('SELECT text, link FROM owner_notices WHERE id = ?').bind(job.transition_id).first<{ text: string; link: string }>();
    expect(notice!.link).toMatch(/\/app\/canary-status$/);
    expect(notice!.text).not.toContain(token);
    const linksOfCanary = () => env.DB.prepare('SELECT token_hash, notice_id, used_at FROM check_in_links WHERE canary_id = ?').bind(canary.id).all();
    expect((await linksOfCanary()).results).toEqual([]);
    // Pressed: one row, keyed by the SHA-256 of the token (never the token), naming the warning it came in.
    expect((await api('POST', `/api/check-in-links/${token}`)).status).toBe(200);
    expect((await linksOfCanary()).results).toEqual([{ token_hash: await hashSecret(token), notice_id: job.transition_id, used_at: expect.any(Number) }]);
    const { results } = await env.DB.prepare('SELECT * FROM check_in_links').all();
    expect(JSON.stringify(results)).not.toContain(token);
  });

  it('is signed: a token with any byte altered, or signed with another secret, is not valid', async () => {
    const { token } = await ownerWarned();
    const detail = { detail: 'This check-in link is not valid. Sign in to check in.' };
    const bytes = fromBase64Url(token);
    for (const at of [0, 20, 33, 40, 57]) {
      const altered = new Uint8Array(bytes);
      altered[at]! ^= 1;
      const res = await api('POST', `/api/check-in-links/${toBase64Url(altered)}`);
      expect([at, res.status, res.data]).toEqual([at, 404, detail]);
    }
    const { canary, job } = await ownerWarned();
    const otherSecret = createServiceContext({ ...env, CANARY_TOKEN_SECRET: 'not-the-servers-secret' } as typeof env, () => new Date());
    const forged = (await issueCheckInLink(otherSecret, { userId: 'x', canaryId: canary.id, noticeId: job.transition_id })).split('/').pop()!;
    expect(forged).toMatch(/^[A-Za-z0-9_-]{78}$/);
    expect((await api('GET', `/api/check-in-links/${forged}`)).status).toBe(404);
  });

  it('made before links were signed (stored, 43 characters), still works once until it expires', async () => {
    const { owner, canary, graceStart } = await ownerWarned();
    const link = await issueCheckInLink(servicesAt(graceStart), { userId: owner.id, canaryId: canary.id, noticeId: 'made-before-signing' });
    const token = link.split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await describeCheckInLink(servicesAt(graceStart), token)).toMatchObject({ state: 'ready', canary_name: 'Daily' });
    expect((await api('POST', `/api/check-in-links/${token}`)).status).toBe(200);
    expect((await api('POST', `/api/check-in-links/${token}`)).status).toBe(409);
    const old = await issueCheckInLink(servicesAt(graceStart), { userId: owner.id, canaryId: canary.id, noticeId: 'made-before-signing-2' });
    expect(await describeCheckInLink(servicesAt(graceStart + 7 * DAY), old.split('/').pop()!)).toMatchObject({ state: 'expired' });
  });

  it('read with GET names the canary and checks nothing in', async () => {
    const { canary, token } = await ownerWarned();
    const before = await lastCheckInOf(canary.id);
    const res = await api('GET', `/api/check-in-links/${token}`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ canary_name: 'Daily', state: 'ready', used_at: null });
    expect(await lastCheckInOf(canary.id)).toBe(before);
  });

  it("pressed, checks in that canary with the source 'link', and is then used", async () => {
    const { owner, canary, token } = await ownerWarned();
    const res = await api('POST', `/api/check-in-links/${token}`);
    expect(res.status).toBe(200);
    expect(res.data.canaries).toEqual([{ id: canary.id, deadline: expect.any(String) }]);
    expect(await lastCheckInOf(canary.id)).toBe(Date.parse(res.data.last_check_in));
    // (The warning's own line is dated at the grace start the test moved the clock to, after this check-in.)
    const feed = (await api('GET', '/api/activity', { token: owner.token })).data as { kind: string }[];
    expect(feed.filter((l) => l.kind === 'check_in')).toEqual([
      expect.objectContaining({
        kind: 'check_in',
        source: 'link',
        canary_id: canary.id,
        summary: 'Checked in from a warning’s link: "Daily".',
      }),
    ]);
    expect((await api('GET', `/api/check-in-links/${token}`)).data).toMatchObject({ state: 'used', used_at: expect.any(String) });
  });

  it('works once: a second press is refused with 409 and says to sign in', async () => {
    const { token } = await ownerWarned();
    expect((await api('POST', `/api/check-in-links/${token}`)).status).toBe(200);
    const again = await api('POST', `/api/check-in-links/${token}`);
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ detail: 'This check-in link was already used. Sign in to check in again.' });
  });

  it('of ten parallel presses, exactly one checks in', async () => {
    const { token } = await ownerWarned();
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => api('POST', `/api/check-in-links/${token}`)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
  });

  it("is given back when the canary's object fails the check-in, and then works", async () => {
    const { canary, token, graceStart } = await ownerWarned();
    const down = {
      ...env,
      CANARY_CLOCK: { idFromName: (n: string) => env.CANARY_CLOCK.idFromName(n), get: () => ({ checkIn: () => Promise.reject(new Error('object down')) }) },
    };
    await expect(
      redeemCheckInLink(
        createServiceContext(down as unknown as typeof env, () => new Date(graceStart + HOUR)),
        token,
      ),
    ).rejects.toThrow('object down');
    expect(await describeCheckInLink(servicesAt(graceStart + HOUR), token)).toMatchObject({ state: 'ready', used_at: null });
    expect((await redeemCheckInLink(servicesAt(graceStart + HOUR), token)).canaries).toEqual([{ id: canary.id, deadline: expect.any(String) }]);
  });

  it('expires seven days after its warning was sent', async () => {
    const { token, graceStart } = await ownerWarned();
    const week = graceStart + 7 * DAY;
    expect(await describeCheckInLink(servicesAt(week - 1), token)).toMatchObject({ state: 'ready', expires_at: new Date(week).toISOString() });
    expect(await describeCheckInLink(servicesAt(week), token)).toMatchObject({ state: 'expired' });
    await expect(redeemCheckInLink(servicesAt(week), token)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This check-in link has expired. Sign in to check in.',
    });
    expect(
      (
        await env.DB.prepare('SELECT count(*) AS n FROM check_in_links WHERE token_hash = ?')
          .bind(await hashSecret(token))
          .first()
      )?.n,
    ).toBe(0);
  });

  it('a made-up or malformed token, and the link of a deleted canary, are 404 with one detail', async () => {
    const { owner, canary, token } = await ownerWarned();
    const detail = { detail: 'This check-in link is not valid. Sign in to check in.' };
    for (const made of ['A'.repeat(43), 'A'.repeat(78), 'short', `${token}x`, token.slice(1)]) {
      const res = await api('POST', `/api/check-in-links/${made}`);
      expect([res.status, res.data]).toEqual([404, detail]);
    }
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    for (const method of ['GET', 'POST']) {
      const res = await api(method, `/api/check-in-links/${token}`);
      expect([res.status, res.data]).toEqual([404, detail]);
    }
  });
});
