import { ZProfileUpdate, ZStartPhoneVerification, ZVerifyPhone } from '../../contracts/profile';
import { protectedProcedure, router } from '../../trpc/init';
import { getProfile } from './profile-view';
import { removePhone } from './remove-phone';
import { startPhoneVerification } from './start-phone-verification';
import { updateProfile } from './update-profile';
import { verifyPhone } from './verify-phone';

export const profileRouter = router({
  get: protectedProcedure.query(({ ctx }) => getProfile(ctx.services, ctx.principal.user.id)),
  update: protectedProcedure.input(ZProfileUpdate).mutation(({ ctx, input }) => updateProfile(ctx.services, ctx.principal.user.id, input)),
  startPhoneVerification: protectedProcedure
    .input(ZStartPhoneVerification)
    .mutation(({ ctx, input }) => startPhoneVerification(ctx.services, ctx.principal.user.id, input.phone)),
  verifyPhone: protectedProcedure.input(ZVerifyPhone).mutation(({ ctx, input }) => verifyPhone(ctx.services, ctx.principal.user.id, input.code)),
  removePhone: protectedProcedure.mutation(({ ctx }) => removePhone(ctx.services, ctx.principal.user.id)),
});
