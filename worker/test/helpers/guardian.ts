import { env } from 'cloudflare:test';
import { deathFlagStatement, setDeathConfirmed } from '../../src/domains/messages/release/set-death-confirmed';
import { api } from './api';
import { servicesAt } from './canary';

type Persona = { id: string; token: string; email: string };

/** Sets the death flag as the ladder's confirming batch would (without a report), then fires what follows. */
export async function confirmDeathDirectly(userId: string, at: number) {
  await deathFlagStatement(env.DB, userId, at, { sql: '1' }).run();
  await setDeathConfirmed(servicesAt(at), userId);
}

/** The invitation link's token, read from the outbox row the invitation wrote (the email channel locally). */
export async function invitationToken(email: string): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT text FROM outbox_messages WHERE address = ? AND subject LIKE '%asks you to be their guardian%' ORDER BY created_at DESC, rowid DESC LIMIT 1",
  )
    .bind(email)
    .first<{ text: string }>();
  if (!row) throw new Error(`no invitation in the outbox for ${email}`);
  return /\/guardian\/accept\/([A-Za-z0-9_-]+)/.exec(row.text)![1]!;
}

/** Runs the pending guardian notices the way the JOBS consumer would (the tests' queues are captured). */
export async function sendPendingGuardianNotices(at = Date.now()) {
  const { sendGuardianNotice } = await import('../../src/domains/guardian/guardian-notices');
  const { results } = await env.DB.prepare("SELECT id FROM guardian_notices WHERE status = 'pending'").all<{ id: string }>();
  for (const { id } of results) await sendGuardianNotice(servicesAt(at), id);
}

/** `owner` invites `guardian` over the API, and `guardian` accepts (unless already done): returns the guardianship id. */
export async function guardianOf(owner: Persona, guardian: Persona): Promise<string> {
  const existing = await env.DB.prepare("SELECT id FROM guardians WHERE owner_id = ? AND guardian_user_id = ? AND status = 'active'")
    .bind(owner.id, guardian.id)
    .first<{ id: string }>();
  if (existing) return existing.id;
  const res = await api('POST', '/api/guardian/assign', { token: owner.token, json: { email: guardian.email, consent: true } });
  if (res.status !== 201) throw new Error(`assign failed: ${res.status} ${res.text}`);
  await sendPendingGuardianNotices();
  const token = await invitationToken(guardian.email);
  const accepted = await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token } });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`);
  return accepted.data.id as string;
}

export async function ladderSteps(ownerId: string) {
  const { results } = await env.DB.prepare('SELECT kind, actor, cause, report_id, at FROM ladder_transitions WHERE owner_id = ? ORDER BY at, rowid')
    .bind(ownerId)
    .all<{ kind: string; actor: string; cause: string; report_id: string | null; at: number }>();
  return results;
}
