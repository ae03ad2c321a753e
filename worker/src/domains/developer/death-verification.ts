import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import type { KeyPrincipal } from '../../middleware/context';

export const DEATH_REPORT_NOT_YET =
  'Death reports arrive with the guardian capability: this endpoint is reserved for keys with webhook:death-verification and records nothing yet';
export const DEATH_REPORT_KEY_ONLY = 'Death reports are made with an API key that holds the webhook:death-verification scope';

/**
 * POST /api/death-verification/report (key only, scope webhook:death-verification). A stub until the
 * guardian capability (DESIGN section 5) decides how a report is confirmed: it must never mark anyone
 * dead on a single call, so for now it answers 501 and changes nothing.
 */
export async function reportDeath(_ctx: ServiceContext, _principal: KeyPrincipal): Promise<never> {
  throw new AppError('NOT_IMPLEMENTED', DEATH_REPORT_NOT_YET);
}
