import { PLAN_LIMITS } from '../../contracts/plans';
import type { ChatPersonaView } from '../../contracts/persona-chat';
import type { ServiceContext } from '../../env';
import { RELEASED_SQL } from './persona-access';
import type { Behavior } from './persona-engine/tone';

/**
 * GET /api/personas: the personas the caller may talk to now — their own, and those released to them —
 * and, after release, those they keep (a keeper who is not a recipient sees it only to retire it).
 */
export async function listChatPersonas(ctx: ServiceContext, userId: string): Promise<ChatPersonaView[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT p.user_id AS owner_id, u.display_name, u.email, u.plan, p.behavior, (p.user_id = ?1) AS is_own,
            ((SELECT keeper_user_id FROM persona_settings WHERE owner_id = p.user_id) IS ?1) AS is_keeper,
            (p.user_id = ?1 OR EXISTS (SELECT 1 FROM persona_recipients r WHERE r.owner_id = p.user_id AND r.recipient_user_id = ?1 AND r.retired_at IS NULL)) AS can_talk
     FROM persona_profiles p JOIN users u ON u.id = p.user_id
     WHERE NOT EXISTS (SELECT 1 FROM persona_settings s WHERE s.owner_id = p.user_id AND s.retired_at IS NOT NULL)
       AND (p.user_id = ?1 OR ((EXISTS (SELECT 1 FROM persona_recipients r WHERE r.owner_id = p.user_id AND r.recipient_user_id = ?1 AND r.retired_at IS NULL)
              OR EXISTS (SELECT 1 FROM persona_settings k WHERE k.owner_id = p.user_id AND k.keeper_user_id = ?1))
            AND ${RELEASED_SQL('p.user_id')}))
     ORDER BY is_own DESC, lower(coalesce(nullif(u.display_name, ''), u.email))`,
  )
    .bind(userId)
    .all<{
      owner_id: string;
      display_name: string;
      email: string;
      plan: keyof typeof PLAN_LIMITS;
      behavior: Behavior;
      is_own: number;
      is_keeper: number;
      can_talk: number;
    }>();
  return results.map((r) => ({
    owner_id: r.owner_id,
    name: r.is_own ? 'You (your own persona)' : r.display_name || r.email,
    behavior: r.behavior,
    is_own: r.is_own === 1,
    is_keeper: r.is_keeper === 1,
    can_talk: r.can_talk === 1,
    voice_minutes_per_session: (PLAN_LIMITS[r.plan] ?? PLAN_LIMITS.free).voiceMinutes,
  }));
}
