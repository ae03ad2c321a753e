import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { TConsentKind } from '../../contracts/legal';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

/*
 * The one reading of a user's consents (docs/decisions/data-rights.md), for every capability that a
 * consent stops: a kind is granted until withdrawn (no row = granted at sign-up). Capabilities not built
 * yet (video) call `hasConsent` / `requireConsent` when they land.
 */

/** Whether `userId` allows processing of `kind` now. */
export async function hasConsent(ctx: ServiceContext, userId: string, kind: TConsentKind): Promise<boolean> {
  const [row] = await ctx.db
    .select({ granted: schema.userConsents.granted })
    .from(schema.userConsents)
    .where(and(eq(schema.userConsents.user_id, userId), eq(schema.userConsents.kind, kind)))
    .limit(1);
  return row?.granted ?? true;
}

/** 403 with `detail` when `kind` is withdrawn; how a refused call says what to do. */
export async function requireConsent(ctx: ServiceContext, userId: string, kind: TConsentKind, detail: string): Promise<void> {
  if (!(await hasConsent(ctx, userId, kind))) throw new AppError('FORBIDDEN', detail);
}

/** The detail of a call refused because `kind` is withdrawn. */
export const consentWithdrawn = (kind: TConsentKind, what: string) =>
  `You withdrew your ${kind} consent: ${what}. Allow it again on the Data Consents page (POST /api/legal/consent/${kind} {"consent": true}).`;

/**
 * The same test as SQL, for a statement that must not act for a user who withdrew `kind` (a release's
 * compare-and-set, a sweep): true when withdrawn. `userIdSql` is a column or `?` of the outer statement;
 * `kind` is one of the fixed kinds (never user input), so it is inlined.
 */
export function consentWithdrawnSql(userIdSql: string, kind: TConsentKind): string {
  return `EXISTS (SELECT 1 FROM user_consents WHERE user_id = ${userIdSql} AND kind = '${kind}' AND granted = 0)`;
}
