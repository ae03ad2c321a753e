import type { User } from '@afterword/db/schema';
import type { TMe } from '../../contracts/auth';

/** The public view of an account (GET /api/auth/me): never the password hash or provider ids. */
export function toMe(user: User): TMe {
  return {
    id: user.id,
    email: user.email,
    data_policy_region: user.data_policy_region,
    legal_jurisdiction: user.legal_jurisdiction ?? null,
    plan: user.plan,
    created_at: user.created_at.toISOString(),
  };
}
