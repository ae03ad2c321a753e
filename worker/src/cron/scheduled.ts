import type { Bindings } from '../env';
import { createServiceContext } from '../wiring/service-context';
import { log } from '../lib/logger';
import { processDeadmanSwitches } from '../domains/deadman/process-deadman';
import { resendUnsentInvitations } from '../domains/contacts/resend-invitations';
import { reconcileLadder } from '../domains/guardian/reconcile-ladder';
import { reconcileReleases, scansLostEvents } from '../domains/messages/reconcile-releases';
import { sweepUnassignedVaultFiles } from '../domains/vault/sweep-unassigned';
import { sweepInactiveAccounts } from '../domains/inactivity/sweep-inactive-accounts';
import { reconcileWebhooks } from '../domains/webhooks/reconcile';
import { endLapsedSandboxSubscriptions } from '../domains/billing/sandbox-portal';
import { reconcileCanaries, scansLostTimers } from './reconcile-canaries';
import { sweepExpired } from './sweep-expired';

/** The daily cron (wrangler.toml): the inactivity policy's sweep, which counts in days. */
export const DAILY_CRON = '17 3 * * *';

/** The every-minute cron: repair canary, release and guardian-ladder timers and lost jobs, send again contact invitations no channel took, run dead-man switches, sweep expired rows and abandoned vault uploads, end cancelled sandbox subscriptions. */
export async function runScheduled(controller: ScheduledController, env: Bindings) {
  const ctx = createServiceContext(env, () => new Date(Math.max(Date.now(), controller.scheduledTime)));
  if (controller.cron === DAILY_CRON) {
    await sweepInactiveAccounts(ctx);
    return;
  }
  const reconciled = await reconcileCanaries(ctx, { lostTimers: scansLostTimers(controller.scheduledTime) });
  await reconcileReleases(ctx, { lostEvents: scansLostEvents(controller.scheduledTime), missingTimers: scansLostTimers(controller.scheduledTime) });
  await reconcileWebhooks(ctx);
  await reconcileLadder(ctx);
  await resendUnsentInvitations(ctx);
  const deadman = await processDeadmanSwitches(ctx);
  const swept = await sweepExpired(ctx);
  const abandonedVaultFiles = await sweepUnassignedVaultFiles(ctx);
  // Locally, the sandbox sends what Stripe would at the end of a cancelled period.
  await endLapsedSandboxSubscriptions(ctx);
  if (reconciled.repaired || reconciled.resent || deadman.scheduled || deadman.deleted || swept.sessions || swept.rateLimits || abandonedVaultFiles) {
    log.info('cron', { ...reconciled, deadman, swept, abandonedVaultFiles });
  }
}
