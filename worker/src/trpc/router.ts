import { authRouter } from '../domains/auth/trpc';
import { activityRouter, canaryRouter } from '../domains/canary/trpc';
import { deadmanRouter, legalRouter } from '../domains/deadman/trpc';
import { router } from './init';

/** The root router only composes; each domain owns its procedures. */
export const appRouter = router({
  auth: authRouter,
  canary: canaryRouter,
  activity: activityRouter,
  deadman: deadmanRouter,
  legal: legalRouter,
});

export type AppRouter = typeof appRouter;
