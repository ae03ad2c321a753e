import { ZChangePassword, ZLoginInput, ZPasswordResetConfirm, ZPasswordResetInspect, ZPasswordResetRequest, ZRegisterInput } from '../../contracts/auth';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';
import { changePassword } from './change-password';
import { loginUser } from './login-user';
import { confirmPasswordReset, inspectPasswordReset, requestPasswordReset } from './password-reset';
import { registerUser } from './register-user';
import { revokeSession } from './sessions';
import { toMe } from './user-profile';

export const authRouter = router({
  register: publicProcedure.input(ZRegisterInput).mutation(({ ctx, input }) => registerUser(ctx.services, input)),
  login: publicProcedure.input(ZLoginInput).mutation(({ ctx, input }) => loginUser(ctx.services, input, ctx.clientAddress)),
  me: protectedProcedure.query(({ ctx }) => toMe(ctx.principal.user)),
  logout: protectedProcedure.mutation(async ({ ctx }) => {
    await revokeSession(ctx.services, ctx.principal.sessionId);
    return { ok: true as const };
  }),
  changePassword: protectedProcedure
    .input(ZChangePassword)
    .mutation(({ ctx, input }) => changePassword(ctx.services, ctx.principal.user, ctx.principal.sessionId, input, ctx.clientAddress)),
  requestPasswordReset: publicProcedure.input(ZPasswordResetRequest).mutation(({ ctx, input }) => requestPasswordReset(ctx.services, input.email, ctx.clientAddress)),
  inspectPasswordReset: publicProcedure.input(ZPasswordResetInspect).mutation(({ ctx, input }) => inspectPasswordReset(ctx.services, input.token)),
  confirmPasswordReset: publicProcedure.input(ZPasswordResetConfirm).mutation(({ ctx, input }) => confirmPasswordReset(ctx.services, input, ctx.clientAddress)),
});
