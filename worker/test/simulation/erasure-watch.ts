import { env } from 'cloudflare:test';
import type { MessageLog, PersonLog } from './behaviour-log';
import { quietly, type Switches } from './instrument';
import { ERASED_AFTER_MS } from './oracle';
import { DAY, HOUR } from './population';
import { type EngineRows, engineRowsOf } from './diagnostics';

/** The subject of the warning a passed dead-man's switch sends (worker/src/domains/deadman/deletion-notice.ts). */
export const DEADMAN_WARNING_SUBJECT = 'Your Afterword account will be deleted unless you check in';

/** A notice in someone's outbox: one row per channel that took it (its key ends in `:sms` for a text). */
export interface MailRow {
  id: string;
  address: string;
  created_at: number;
  subject: string;
  idempotency_key: string;
}

/** Each notice once, as it first reached the person (the earliest of its channels' rows), in time order. */
export function firstOfEachNotice(rows: readonly MailRow[]): MailRow[] {
  const first = new Map<string, MailRow>();
  for (const row of rows) {
    // A notice's copies on each channel share its key: `notice:<id>:email`, `:sms`, `:push:<device>`.
    const notice = row.idempotency_key.replace(/:(email|sms|push:.*)$/, '');
    const seen = first.get(notice);
    if (!seen || row.created_at < seen.created_at) first.set(notice, row);
  }
  return [...first.values()].sort((a, b) => a.created_at - b.created_at);
}

/** The other messages of a vault message's item: the years after, which each yearly release writes. */
export async function nextYearsOf(messageId: string): Promise<{ deliverAt: number; releasedAt: number | null }[]> {
  const { results } = await env.DB.prepare(
    `SELECT deliver_at AS deliverAt, released_at AS releasedAt FROM messages
     WHERE vault_item_id = (SELECT vault_item_id FROM messages WHERE id = ?1) AND id != ?1 ORDER BY deliver_at`,
  )
    .bind(messageId)
    .all<{ deliverAt: number; releasedAt: number | null }>();
  return results;
}

interface ReleaseRow {
  id: string;
  released_at: number | null;
  ok: number;
}

/**
 * Watches, from outside, the people whose account may be erased during the run — by their dead-man's switch, or a
 * week after they asked: an erased account takes its owner's mailbox (their warnings) and their messages (with the
 * instants they were released) with it, so what reached them and what they released is read just before each cron
 * run that could erase them (the cron is the only thing that does), and whether their account still exists just
 * after. The oracle reads the result from the behaviour log only. These reads are not counted in the run's costs.
 */
export class ErasureWatch {
  private readonly mail = new Map<number, Map<string, MailRow>>();
  private readonly releases = new Map<string, ReleaseRow>();
  private readonly erased = new Set<number>();
  private readonly nextYears = new Map<string, NonNullable<MessageLog['yearly']>['nextYears']>();
  /** What the engine held of each watched person, as last read (for a failure's report only: diagnostics.ts). */
  private readonly engine = new Map<number, EngineRows>();

  constructor(private readonly switches: Switches) {}

  /**
   * Those the next cron run may erase: a switch that may have passed a day ago (from what they did), or a deletion
   * they asked for a week ago.
   */
  private candidates(people: readonly PersonLog[], now: number) {
    return people.filter((p) => {
      if (this.erased.has(p.index)) return false;
      if (p.deletionRequestedAt !== null) return p.deletionRequestedAt + ERASED_AFTER_MS <= now;
      if (!p.deadman) return false;
      const last = Math.max(p.deadman.setAt, ...p.checkIns);
      return last + p.deadman.hours * HOUR + DAY <= now;
    });
  }

  /** Before a cron run: what reached each candidate, and their messages' releases, while their account exists. */
  async beforeCron(people: readonly PersonLog[], messages: readonly MessageLog[], now: number) {
    for (const p of this.candidates(people, now)) {
      await quietly(this.switches, async () => {
        const { results: mail } = await env.DB.prepare(
          `SELECT id, address, created_at, subject, idempotency_key FROM outbox_messages
           WHERE channel IN ('email', 'sms', 'push') AND address IN (?1, ?2, ?3) AND idempotency_key LIKE 'notice:%'`,
        )
          .bind(p.email, p.phone ?? p.email, p.push ?? p.email)
          .all<MailRow>();
        const seen = this.mail.get(p.index) ?? new Map<string, MailRow>();
        for (const row of mail) seen.set(row.id, row);
        this.mail.set(p.index, seen);
        const { results: sent } = await env.DB.prepare(
          `SELECT m.id, m.released_at,
                  (SELECT count(*) FROM delivery_log l WHERE l.message_id = m.id AND l.channel = m.delivery_method AND l.success = 1) AS ok
           FROM messages m WHERE m.sender_id = ?`,
        )
          .bind(p.userId)
          .all<ReleaseRow>();
        for (const row of sent) this.releases.set(row.id, row);
        for (const m of messages.filter((m) => m.yearly && m.sender === p.index)) this.nextYears.set(m.id, await nextYearsOf(m.id));
        this.engine.set(p.index, await engineRowsOf(p.userId));
      });
    }
  }

  /** After a cron run: the candidates whose account is gone were erased now. */
  async afterCron(people: readonly PersonLog[], now: number): Promise<void> {
    const watched = this.candidates(people, now);
    if (!watched.length) return;
    const { results } = await quietly(this.switches, () =>
      env.DB.prepare(`SELECT id FROM users WHERE id IN (${watched.map(() => '?').join(',')})`)
        .bind(...watched.map((p) => p.userId))
        .all<{ id: string }>(),
    );
    const still = new Set(results.map((r) => r.id));
    const erased = watched.filter((p) => !still.has(p.userId));
    for (const p of erased) {
      this.erased.add(p.index);
      // A dead-man erasure is judged by when it happened; a requested one is dated by the request (oracle.ts).
      if (p.deadman && p.deletionRequestedAt === null) p.deadman.erasedAt = now;
    }
  }

  /** The notices' rows in a watched person's outbox, as last read (for one erased since: before their erasure). */
  mailOf(person: number): MailRow[] {
    return [...(this.mail.get(person)?.values() ?? [])];
  }

  /** A yearly birthday item's years after, as last read before its sender's erasure (none: never read). */
  nextYearsOf(messageId: string): NonNullable<MessageLog['yearly']>['nextYears'] {
    return this.nextYears.get(messageId) ?? [];
  }

  /** A person's engine rows as last read before their erasure (undefined: not erased, or never read). */
  engineBeforeErasureOf(person: number): EngineRows | undefined {
    return this.erased.has(person) ? this.engine.get(person) : undefined;
  }

  /** A message's release as last read before its sender's erasure (undefined: never read). */
  releaseOf(messageId: string): ReleaseRow | undefined {
    return this.releases.get(messageId);
  }
}
