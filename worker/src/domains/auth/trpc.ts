import { ZLoginInput, ZRegisterInput } from '../../contracts/auth';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';
import { loginUser } from './login-user';
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
});
