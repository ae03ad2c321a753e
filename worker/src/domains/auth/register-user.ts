import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZRegisterInput } from '../../contracts/auth';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashPassword } from '../../lib/kdf';
import { isCommonPassword } from './common-passwords';
import { toMe } from './user-profile';
import { isUniqueViolation } from '../../lib/constraint-violation';

const emailTaken = () => new AppError('CONFLICT', 'An account with this email already exists');

export async function registerUser(ctx: ServiceContext, input: z.output<typeof ZRegisterInput>) {
  if (isCommonPassword(input.password)) {
    throw new AppError('UNPROCESSABLE', [
      { loc: ['body', 'password'], msg: 'This password is too common. Choose one that is harder to guess.', type: 'common_password' },
    ]);
  }
  const existing = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, input.email)).limit(1);
  if (existing.length) throw emailTaken();
  return insertUser(ctx, input, await hashPassword(input.password));
}

/**
 * Writes the new account with its already computed password hash. Separate from the hashing so that the
 * Worker tests can create many accounts from one real hash (worker/test/helpers/api.ts) instead of
 * paying for two scrypt runs per test user.
 */
export async function insertUser(ctx: ServiceContext, input: z.output<typeof ZRegisterInput>, passwordHash: string) {
  const now = ctx.now();
  const user = {
    id: crypto.randomUUID(),
    email: input.email,
    password_hash: passwordHash,
    data_policy_region: input.data_policy_region,
    legal_jurisdiction: input.legal_jurisdiction ?? null,
    plan: 'free' as const,
    google_sub: null,
    display_name: '',
    time_zone: 'UTC',
    phone_e164: null,
    phone_verified_at: null,
    death_confirmed_at: null,
    last_sign_in_at: null,
    archived_at: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.db.insert(schema.users).values(user);
  } catch (err) {
    // Two registrations racing for one email: the unique index decides, the loser gets 409.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  return toMe(user);
}
