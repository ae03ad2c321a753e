import type { ServiceContext } from '../../env';
import { consentWithdrawnSql } from '../legal/consent-state';

/**
 * Whether the user has releases under way that are not delivered yet — armed (its cancel window running) or
 * releasing (deliveries in progress): a dead-man deletion waits for them (docs/server-rules.md "Canaries and
 * check-ins"), since deleting the account would delete the messages with it. An armed message of a sender who
 * withdrew their messages consent is paused, not under way: nothing releases it while that lasts, and a deletion
 * that waited for it waited for ever (the simulation at 1,000 people found one never carried out).
 */
export async function hasUndeliveredReleases(ctx: ServiceContext, userId: string): Promise<boolean> {
  const row = await ctx.env.DB.prepare(
    `SELECT 1 FROM messages m
     WHERE m.sender_id = ?1 AND (m.status = 'releasing' OR (m.status = 'armed' AND NOT ${consentWithdrawnSql('m.sender_id', 'messages')}))
     LIMIT 1`,
  )
    .bind(userId)
    .first();
  return row != null;
}
