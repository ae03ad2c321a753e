import { z } from 'zod';

/** A requested deletion waits this long: time to change one's mind (and to take an export first). */
export const ACCOUNT_DELETION_DELAY_MS = 7 * 86_400_000;

/** POST /api/account/delete: the password confirms it is the person, not a left-open session. */
export const ZAccountDeleteInput = z.object({
  password: z
    .string({ message: 'password is required: confirm with the password you sign in with' })
    .min(1, { message: 'password is required: confirm with the password you sign in with' }),
});
export type TAccountDeleteInput = z.infer<typeof ZAccountDeleteInput>;

export const ACCOUNT_DELETION_ERRORS = {
  wrongPassword: 'That is not your password',
  noPassword: 'This account signs in with Google only: set a password first (Forgot password), then confirm the deletion with it',
  already: 'Your account is already scheduled for deletion',
  nothingToCancel: 'No deletion of your account is scheduled',
} as const;

/** The answer of POST /api/account/delete/cancel. */
export const ZAccountDeletionCancelled = z.object({ cancelled: z.literal(true), id: z.string() });
