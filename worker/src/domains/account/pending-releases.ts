import { schema } from '@afterword/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../env';

/**
 * Whether the user has releases under way that are not delivered yet — armed (its cancel window running)
 * or releasing (deliveries in progress): a dead-man deletion waits for them
 * (docs/server-rules.md "Canaries and check-ins"), since deleting the account would delete the messages with it.
 */
export async function hasUndeliveredReleases(ctx: ServiceContext, userId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: schema.messages.id })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, userId), inArray(schema.messages.status, ['armed', 'releasing'])))
    .limit(1);
  return row != null;
}
