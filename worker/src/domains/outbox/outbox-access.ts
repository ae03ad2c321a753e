import { listOutbox } from '../../channels/outbox';
import type { OutboxPage } from '../../contracts/outbox';
import { isProduction, type Bindings, type ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export const OUTBOX_DEFAULT_LIMIT = 100;

/** The outbox page exists only outside production, where nothing is really sent. */
export const outboxEnabled = (env: Pick<Bindings, 'APP_ENV'>) => !isProduction(env);

/**
 * The operator view (every account's rows) exists only when whoever runs the install asked for it with
 * OUTBOX_OPERATOR_VIEW = "true" — and never in production, whatever the setting says: there the rows
 * would be real people's reset links and codes. Off by default because `npm start` also serves demos
 * and small teams, where every signed-in user would then read everyone's mail.
 */
export const operatorViewEnabled = (env: Pick<Bindings, 'APP_ENV' | 'OUTBOX_OPERATOR_VIEW'>) =>
  outboxEnabled(env) && env.OUTBOX_OPERATOR_VIEW?.trim().toLowerCase() === 'true';

const notFound = (path: string) => new AppError('NOT_FOUND', `No API route for GET ${path}`);

/**
 * The caller's local mailbox, newest first: only the deliveries addressed to their account (their
 * email, phone, devices and owner notices). A local install serves several people, so the outbox is
 * their mailbox, not a shared log. In production it answers like a route that does not exist.
 */
export async function readOutbox(ctx: ServiceContext, userId: string, limit = OUTBOX_DEFAULT_LIMIT): Promise<OutboxPage> {
  if (!outboxEnabled(ctx.env)) throw notFound('/api/outbox');
  return { enabled: true as const, messages: await listOutbox(ctx, { userId }, limit) };
}

/** Every stored delivery, whoever it was for, including rows with no known recipient: operator view only. */
export async function readEveryOutbox(ctx: ServiceContext, limit = OUTBOX_DEFAULT_LIMIT): Promise<OutboxPage> {
  if (!operatorViewEnabled(ctx.env)) throw notFound('/api/outbox/all');
  return { enabled: true as const, messages: await listOutbox(ctx, { operator: true }, limit) };
}
