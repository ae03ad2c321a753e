import { ACCEPTED_CONTACT_IDS_SQL } from '../contacts/contact-records';
import type { z } from 'zod';
import { type PersonaAccessView, type TPersonaAccessInput, ZRetireInput } from '../../contracts/persona-chat';
import { parseOrThrow } from '../../lib/validation';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError, notFound } from '../../lib/errors';
import { eraseChatImports } from '../chat-import/imports';
import { eraseVoiceData } from './samples';

/**
 * Who may talk to a persona (docs/decisions/voice.md "Who may talk to the persona").
 * Before the owner's release only the owner. After it, the recipients the owner chose among their accepted
 * contacts; each may retire it for themselves; the keeper (or the owner) may retire it for everyone, which
 * deletes the profile and everything derived from it.
 */

/**
 * The owner's release, as the release engine and the guardian ladder record it: death confirmed
 * (`users.death_confirmed_at`, guardians or a death-verification key), or a message of theirs released at
 * the end of the cancel window of a missed-check-ins rule (the rule that fired last, as the recipient's
 * view reads it: received-messages.ts releaseReasonOf).
 */
export const RELEASED_SQL = (owner: string) => `(
  (SELECT death_confirmed_at FROM users WHERE id = ${owner}) IS NOT NULL
  OR EXISTS (
    SELECT 1 FROM messages m JOIN message_transitions t ON t.message_id = m.id AND t.to_status = 'releasing' AND t.cause = 'window_ended'
    WHERE m.sender_id = ${owner} AND m.released_at IS NOT NULL
      AND (SELECT json_extract(r.value, '$.trigger_type') FROM json_each(m.rules) r
           WHERE json_extract(r.value, '$.fired_at') IS NOT NULL ORDER BY json_extract(r.value, '$.fired_at') DESC LIMIT 1) = 'missed_checkins'))`;

export async function ownerReleased(ctx: ServiceContext, ownerId: string): Promise<boolean> {
  const row = await ctx.env.DB.prepare(`SELECT ${RELEASED_SQL('?1')} AS released`)
    .bind(ownerId)
    .first<{ released: number }>();
  return row?.released === 1;
}

export interface PersonaStanding {
  /** Set up and not retired for everyone. */
  exists: boolean;
  released: boolean;
  isOwner: boolean;
  isKeeper: boolean;
  /** A chosen recipient who has not retired it for themselves. */
  isRecipient: boolean;
  retiredForMe: boolean;
}

/** What `userId` is to `ownerId`'s persona. */
export async function standing(ctx: ServiceContext, ownerId: string, userId: string): Promise<PersonaStanding> {
  const row = await ctx.env.DB.prepare(
    `SELECT EXISTS (SELECT 1 FROM persona_profiles WHERE user_id = ?1) AS has_persona,
            (SELECT retired_at FROM persona_settings WHERE owner_id = ?1) AS retired_at,
            (SELECT keeper_user_id FROM persona_settings WHERE owner_id = ?1) AS keeper,
            (SELECT CASE WHEN retired_at IS NULL THEN 1 ELSE 2 END FROM persona_recipients WHERE owner_id = ?1 AND recipient_user_id = ?2) AS recipient,
            ${RELEASED_SQL('?1')} AS released`,
  )
    .bind(ownerId, userId)
    .first<{ has_persona: number; retired_at: number | null; keeper: string | null; recipient: number | null; released: number }>();
  return {
    exists: row?.has_persona === 1 && row.retired_at == null,
    released: row?.released === 1,
    isOwner: ownerId === userId,
    isKeeper: row?.keeper === userId,
    isRecipient: row?.recipient === 1,
    retiredForMe: row?.recipient === 2,
  };
}

export const NO_PERSONA = 'No persona to talk to here';

/** May `userId` talk to `ownerId`'s persona now? The owner always (while it exists); a chosen recipient only after release. 404 otherwise. */
export async function requireListener(ctx: ServiceContext, ownerId: string, userId: string): Promise<PersonaStanding> {
  const s = await standing(ctx, ownerId, userId);
  if (!s.exists || !(s.isOwner || (s.released && s.isRecipient))) throw notFound(NO_PERSONA);
  return s;
}

interface PersonRow {
  user_id: string;
  email: string;
  display_name: string;
}
const person = (r: PersonRow) => ({ user_id: r.user_id, email: r.email, name: r.display_name || r.email });

/** The owner's accepted contacts (a contact is mutual: either side may have invited). */
const CONTACTS_SQL = `SELECT u.id AS user_id, u.email, u.display_name FROM users u WHERE u.id IN (${ACCEPTED_CONTACT_IDS_SQL})`;

export async function personaAccess(ctx: ServiceContext, ownerId: string): Promise<PersonaAccessView> {
  const db = ctx.env.DB;
  const [candidates, recipients, keeper, settings] = await db.batch<Record<string, unknown>>([
    db.prepare(`${CONTACTS_SQL} ORDER BY lower(coalesce(nullif(u.display_name, ''), u.email))`).bind(ownerId),
    db
      .prepare(
        `SELECT u.id AS user_id, u.email, u.display_name, r.retired_at FROM persona_recipients r JOIN users u ON u.id = r.recipient_user_id
         WHERE r.owner_id = ?1 ORDER BY r.added_at, u.email`,
      )
      .bind(ownerId),
    db
      .prepare('SELECT u.id AS user_id, u.email, u.display_name FROM persona_settings s JOIN users u ON u.id = s.keeper_user_id WHERE s.owner_id = ?1')
      .bind(ownerId),
    db.prepare(`SELECT (SELECT retired_at FROM persona_settings WHERE owner_id = ?1) AS retired_at, ${RELEASED_SQL('?1')} AS released`).bind(ownerId),
  ]);
  const s = (settings?.results[0] ?? {}) as { retired_at: number | null; released: number };
  return {
    candidates: ((candidates?.results ?? []) as unknown as PersonRow[]).map(person),
    recipients: ((recipients?.results ?? []) as unknown as (PersonRow & { retired_at: number | null })[]).map((r) => ({
      ...person(r),
      retired_at: r.retired_at == null ? null : new Date(r.retired_at).toISOString(),
    })),
    keeper: keeper?.results[0] ? person(keeper.results[0] as unknown as PersonRow) : null,
    released: s.released === 1,
    retired_at: s.retired_at == null ? null : new Date(s.retired_at).toISOString(),
  };
}

/**
 * The owner chooses (replaces) the recipients and the keeper, among their accepted contacts. A recipient
 * kept on the list keeps their own retirement: choosing them again does not undo it.
 */
export async function setPersonaAccess(ctx: ServiceContext, ownerId: string, input: TPersonaAccessInput): Promise<PersonaAccessView> {
  const db = ctx.env.DB;
  const { results } = await db.prepare(CONTACTS_SQL).bind(ownerId).all<PersonRow>();
  const contacts = new Set(results.map((r) => r.user_id));
  const recipients = [...new Set(input.recipient_ids)];
  const stranger = recipients.findIndex((id) => !contacts.has(id));
  if (stranger >= 0) {
    throw new AppError('UNPROCESSABLE', [
      {
        loc: ['body', 'recipient_ids', stranger],
        msg: 'choose recipients among your accepted contacts (invite them on the Contacts page first)',
        type: 'not_a_contact',
      },
    ]);
  }
  if (input.keeper_id && !contacts.has(input.keeper_id)) {
    throw bodyFieldError('keeper_id', 'choose the keeper among your accepted contacts (invite them on the Contacts page first)', 'not_a_contact');
  }
  const now = ctx.now().getTime();
  const keep = JSON.stringify(recipients);
  await db.batch([
    db.prepare('DELETE FROM persona_recipients WHERE owner_id = ?1 AND recipient_user_id NOT IN (SELECT value FROM json_each(?2))').bind(ownerId, keep),
    db
      .prepare(
        'INSERT INTO persona_recipients (owner_id, recipient_user_id, added_at) SELECT ?1, value, ?3 FROM json_each(?2) WHERE true ON CONFLICT (owner_id, recipient_user_id) DO NOTHING',
      )
      .bind(ownerId, keep, now),
    db
      .prepare(
        `INSERT INTO persona_settings (owner_id, keeper_user_id, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (owner_id) DO UPDATE SET keeper_user_id = excluded.keeper_user_id, updated_at = excluded.updated_at`,
      )
      .bind(ownerId, input.keeper_id, now),
  ]);
  return personaAccess(ctx, ownerId);
}

/**
 * Retiring. `me`: a chosen recipient, after release, stops it for themselves (no more replies to them).
 * `everyone`: the keeper after release, or the owner at any time, ends it: no replies to anyone, and the
 * persona, the voice profile, the samples, Messages from the Beyond and imported chats it was built from,
 * the choices of recipients and the sessions are deleted (eraseVoiceData, eraseChatImports). Anyone else: 404, as for a persona they cannot see.
 */
export async function retirePersona(ctx: ServiceContext, ownerId: string, userId: string, body: Partial<z.output<typeof ZRetireInput>>): Promise<{ ok: true }> {
  const s = await standing(ctx, ownerId, userId);
  const seesIt = s.exists && (s.isOwner || (s.released && (s.isRecipient || s.isKeeper)));
  if (!seesIt) throw notFound(NO_PERSONA);
  const scope = parseOrThrow(ZRetireInput, body, 'body').for;
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  if (scope === 'me') {
    if (!s.isRecipient)
      throw new AppError('CONFLICT', s.isOwner ? 'This is your own persona: retire it for everyone instead' : 'Only a recipient retires it for themselves');
    await db
      .prepare('UPDATE persona_recipients SET retired_at = ?3 WHERE owner_id = ?1 AND recipient_user_id = ?2 AND retired_at IS NULL')
      .bind(ownerId, userId, now)
      .run();
    return { ok: true };
  }
  if (!s.isOwner && !s.isKeeper)
    throw new AppError('FORBIDDEN', 'Only the keeper the owner named can retire this persona for everyone; you can retire it for yourself');
  await db.batch([
    db
      .prepare(
        `INSERT INTO persona_settings (owner_id, retired_at, retired_by, updated_at) VALUES (?1, ?2, ?3, ?2)
         ON CONFLICT (owner_id) DO UPDATE SET retired_at = excluded.retired_at, retired_by = excluded.retired_by, updated_at = excluded.updated_at`,
      )
      .bind(ownerId, now, s.isOwner ? 'owner' : 'keeper'),
    db.prepare('DELETE FROM persona_recipients WHERE owner_id = ?1').bind(ownerId),
    db.prepare('DELETE FROM persona_chat_sessions WHERE owner_id = ?1').bind(ownerId),
  ]);
  await eraseVoiceData(ctx, ownerId);
  await eraseChatImports(ctx, ownerId);
  return { ok: true };
}
