import type { TActivity } from '../../contracts/activity';
import type { ServiceContext } from '../../env';

/**
 * Feed lines another domain keeps outside D1's `activity` table — the token, ping and link check-ins, which live in
 * each canary's object (docs/decisions/check-in-history.md). Composed in worker/src/wiring/service-context.ts: the
 * activity domain reads them without depending on the domain that keeps them.
 */
export interface ActivityLineSource {
  /** The user's lines it keeps, newest first: at least every one of them among the user's newest `limit` lines. */
  recent(ctx: ServiceContext, userId: string, limit: number): Promise<TActivity[]>;
  /** Writes every line it keeps of the user into D1's `activity` (once each), for a reader of the table itself: the export. */
  keep(ctx: ServiceContext, userId: string): Promise<void>;
}
