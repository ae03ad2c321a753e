import { schema } from '@afterword/db';
import type { ServiceContext } from '../../env';

export interface ActivityEntry {
  userId: string;
  kind: string;
  summary: string;
  source?: string | null;
  canaryId?: string | null;
  at?: Date;
}

/** The insert statement for one activity row, so callers can batch it with the change it records. */
export function activityInsert(ctx: ServiceContext, entry: ActivityEntry) {
  return ctx.db.insert(schema.activity).values({
    id: crypto.randomUUID(),
    user_id: entry.userId,
    canary_id: entry.canaryId ?? null,
    kind: entry.kind,
    source: entry.source ?? null,
    summary: entry.summary,
    created_at: entry.at ?? ctx.now(),
  });
}
