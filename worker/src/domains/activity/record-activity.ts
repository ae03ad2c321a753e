import { schema } from '@afterword/db';
import type { TActivity } from '../../contracts/activity';
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

/**
 * Writes feed lines another domain keeps elsewhere (line-sources.ts) into the user's `activity`, once each: a line
 * already there by its id is left as it is. One statement however many lines.
 */
export async function keepActivityLines(ctx: ServiceContext, userId: string, lines: readonly TActivity[]): Promise<void> {
  if (!lines.length) return;
  await ctx.env.DB.prepare(
    `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
     SELECT json_extract(value, '$.id'), ?1, json_extract(value, '$.canary_id'), json_extract(value, '$.kind'), json_extract(value, '$.source'),
            json_extract(value, '$.summary'), json_extract(value, '$.at')
     FROM json_each(?2) WHERE true
     ON CONFLICT DO NOTHING`,
  )
    .bind(userId, JSON.stringify(lines.map((l) => ({ ...l, at: Date.parse(l.created_at) }))))
    .run();
}
