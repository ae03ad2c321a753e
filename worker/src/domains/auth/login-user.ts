import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZLoginInput } from '../../contracts/auth';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { getDecoyHash, hashPassword, verifyPassword } from '../../lib/kdf';
import { loginThrottleKeys, reserveLoginAttempt, settleLoginFailure, settleLoginSuccess } from './login-throttle';
import { createSession } from './sessions';

/** One detail for every wrong-credential case, so the answer does not tell which part was wrong. */
export const BAD_CREDENTIALS = 'Incorrect email or password';

export async function loginUser(ctx: ServiceContext, input: z.output<typeof ZLoginInput>, clientAddress: string) {
  // The attempt's slot is taken before the (slow) password check, so parallel guesses cannot outrun it.
  const reservation = await reserveLoginAttempt(ctx, await loginThrottleKeys(input.email, clientAddress));

  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, input.email)).limit(1);
  // Unknown email (or a Google-only account): verify against a decoy so the time spent is the same.
  const verdict = await verifyPassword(input.password, user?.password_hash ?? (await getDecoyHash()));
  if (!user?.password_hash || !verdict.ok) {
    await settleLoginFailure(ctx, reservation);
    throw new AppError('UNAUTHORIZED', BAD_CREDENTIALS);
  }

  await settleLoginSuccess(ctx, reservation);
  if (verdict.needsRehash) {
    await ctx.db
      .update(schema.users)
      .set({ password_hash: await hashPassword(input.password), updated_at: ctx.now() })
      .where(eq(schema.users.id, user.id));
  }
  return createSession(ctx, user.id, 'password');
}
