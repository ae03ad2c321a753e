import { listOutbox } from '../../channels/outbox';
import { isProduction, type Bindings, type ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export const OUTBOX_DEFAULT_LIMIT = 100;

/** The outbox page exists only outside production, where nothing is really sent. */
export const outboxEnabled = (env: Pick<Bindings, 'APP_ENV'>) => !isProduction(env);

/**
 * Every stored delivery, newest first, whoever it was for: on a local install the outbox stands in
 * for the recipients' mailboxes and phones. In production it answers like a route that does not exist.
 */
export async function readOutbox(ctx: ServiceContext, limit = OUTBOX_DEFAULT_LIMIT, path = '/api/outbox') {
  if (!outboxEnabled(ctx.env)) throw new AppError('NOT_FOUND', `No API route for GET ${path}`);
  return { enabled: true as const, messages: await listOutbox(ctx, limit) };
}
