import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { TDeathReportResult } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import type { KeyPrincipal } from '../../middleware/context';
import { ALREADY_CONFIRMED } from '../guardian/answer-guardian';
import { personName } from '../../lib/person-label';
import { ladderStateFor } from '../guardian/ladder-view';
import { recordDeathReport } from '../guardian/report-death';

export const DEATH_REPORT_KEY_ONLY = 'Death reports are made with an API key that holds the webhook:death-verification scope';

/**
 * POST /api/death-verification/report (key only, scope webhook:death-verification): an executor's
 * system reports the death of the key's own account holder — the owner authorised it by creating the
 * key; a key can never report anyone else. It opens the veto window by itself (ladder step 2): the owner
 * is told on every channel at once and halfway, any check-in refutes it, and only an unrefuted window
 * confirms the death. Never on this call alone. A sandbox key (`afw_test_`) runs the same path marked
 * `sandbox: true`: its notices go to the outbox only, its webhook is marked, and it never sets the
 * death flag. Reporting again while a report is open records nothing new (`already_reported`).
 */
async function deathConfirmedAt(ctx: ServiceContext, userId: string): Promise<Date | null> {
  const [row] = await ctx.db.select({ at: schema.users.death_confirmed_at }).from(schema.users).where(eq(schema.users.id, userId)).limit(1);
  return row?.at ?? null;
}

export async function reportDeath(ctx: ServiceContext, principal: KeyPrincipal, input: { note?: string | undefined }): Promise<TDeathReportResult> {
  const owner = principal.user;
  if (owner.death_confirmed_at) throw new AppError('CONFLICT', ALREADY_CONFIRMED(personName(owner)));
  const outcome = await recordDeathReport(ctx, owner, { kind: 'key', keyId: principal.keyId, note: input.note }, principal.sandbox);
  // The write refuses a confirmed owner; if the death was confirmed after this request read the account,
  // say so (409) rather than "already reported" about a report that is over.
  if (!outcome.voted && (await deathConfirmedAt(ctx, owner.id)) !== null) throw new AppError('CONFLICT', ALREADY_CONFIRMED(personName(owner)));
  const state = await ladderStateFor(ctx, owner, ctx.now().getTime());
  const report = principal.sandbox ? state.sandbox_report : state.report;
  if (!report) throw new AppError('CONFLICT', ALREADY_CONFIRMED(personName(owner)));
  return { recorded: outcome.voted ? 'death_reported' : 'already_reported', sandbox: principal.sandbox, report };
}
