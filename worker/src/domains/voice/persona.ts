import type { PersonaView, TPersonaInput } from '../../contracts/persona';
import type { ServiceContext } from '../../env';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';

interface PersonaRow {
  persona_text: string;
  behavior: PersonaView['behavior'];
  qa: string;
  updated_at: number;
}

/** GET /api/ai/profile: the persona, or an empty neutral one before the first save. */
export async function getPersona(ctx: ServiceContext, userId: string): Promise<PersonaView> {
  const row = await ctx.env.DB.prepare('SELECT persona_text, behavior, qa, updated_at FROM persona_profiles WHERE user_id = ?1')
    .bind(userId)
    .first<PersonaRow>();
  if (!row) return { persona_text: '', behavior: 'neutral', qa: [], answered: 0, updated_at: null };
  const qa = JSON.parse(row.qa) as PersonaView['qa'];
  return { persona_text: row.persona_text, behavior: row.behavior, qa, answered: qa.length, updated_at: new Date(row.updated_at).toISOString() };
}

/**
 * POST /api/ai/train-profile: saves the persona as a whole (what is sent replaces what was there). Needs
 * the voice consent, like everything the persona is built from (docs/decisions/data-rights.md).
 */
export async function savePersona(ctx: ServiceContext, userId: string, input: TPersonaInput): Promise<PersonaView> {
  await requireConsent(ctx, userId, 'voice', consentWithdrawn('voice', 'no persona is built'));
  const now = ctx.now().getTime();
  await ctx.env.DB.prepare(
    `INSERT INTO persona_profiles (user_id, persona_text, behavior, qa, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
     ON CONFLICT (user_id) DO UPDATE SET persona_text = excluded.persona_text, behavior = excluded.behavior, qa = excluded.qa, updated_at = excluded.updated_at`,
  )
    .bind(userId, input.persona_text, input.behavior, JSON.stringify(input.qa), now)
    .run();
  // Setting up again after a retirement (the owner came back from a missed-check-in release) starts a new persona.
  await ctx.env.DB.prepare('UPDATE persona_settings SET retired_at = NULL, retired_by = NULL, updated_at = ?2 WHERE owner_id = ?1 AND retired_at IS NOT NULL')
    .bind(userId, now)
    .run();
  return getPersona(ctx, userId);
}
