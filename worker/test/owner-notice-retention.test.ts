import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Channels } from '../src/channels/registry';
import type { DeliveryResult } from '../src/channels/types';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';

/**
 * A sent notice keeps its subject and where it went, not its body (docs/decisions/notifications.md "A sent notice
 * keeps its subject, not its body"): the body is held until a channel takes it, and no longer.
 */
/** Outside anyone's default quiet hours. */
const NOON = Date.UTC(2026, 11, 1, 12);
const BODY = 'Your message to Ada is armed. It will be released at Tue, 1 Dec 2026, 10:00 UTC unless you check in before then.';

/** Channels that answer from `script` in order and keep the text each send carried. */
function channelsKeepingText(script: DeliveryResult[]) {
  const texts: string[] = [];
  let i = 0;
  const next = async (text: string) => {
    texts.push(text);
    return script[Math.min(i++, script.length - 1)]!;
  };
  const channels: Channels = {
    transports: { email: 'test', sms: 'test', call: 'test', push: 'test' },
    email: (_to, m) => next(m.text),
    sms: (_to, m) => next(m.text),
    call: (_to, m) => next(m.text),
    push: (_s, m) => next(m.text),
  };
  return { channels, texts };
}

async function noticeFor(userId: string, at: number) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO owner_notices (id, user_id, kind, subject, text, link, outbox_only, status, due_at, created_at)
     VALUES (?1, ?2, 'message_armed', 'A message of yours is armed', ?3, NULL, 0, 'pending', ?4, ?4)`,
  )
    .bind(id, userId, BODY, at)
    .run();
  return id;
}

const noticeRow = (id: string) =>
  env.DB.prepare('SELECT status, subject, text FROM owner_notices WHERE id = ?').bind(id).first<{ status: string; subject: string; text: string }>();

describe("an owner's notice", () => {
  it('reaches the owner whole, then keeps its subject and where it went, not its body', async () => {
    const owner = await signedInUser();
    const at = NOON;
    const id = await noticeFor(owner.id, at);
    const { channels, texts } = channelsKeepingText([{ ok: true }]);
    expect(await sendOwnerNotice(servicesAt(at + 1000), id, channels)).toBe('sent');
    expect(texts).toEqual([BODY]);
    expect(await noticeRow(id)).toEqual({ status: 'sent', subject: 'A message of yours is armed', text: '' });
    const went = await env.DB.prepare('SELECT channel, ok FROM owner_notice_deliveries WHERE notice_id = ?').bind(id).all();
    expect(went.results).toEqual([{ channel: 'email', ok: 1 }]);
  });

  it('keeps its body while no channel has taken it, for its next try', async () => {
    const owner = await signedInUser();
    const at = NOON;
    const id = await noticeFor(owner.id, at);
    const down = channelsKeepingText([{ ok: false, retryable: true, error: 'mail server down' }]);
    expect(await sendOwnerNotice(servicesAt(at + 1000), id, down.channels)).toBe('undelivered');
    expect((await noticeRow(id))!.text).toBe(BODY);

    const up = channelsKeepingText([{ ok: true }]);
    expect(await sendOwnerNotice(servicesAt(at + 10 * 60_000), id, up.channels)).toBe('sent');
    expect(up.texts).toEqual([BODY]);
    expect((await noticeRow(id))!.text).toBe('');
  });
});
