import { authRouter } from '../domains/auth/trpc';
import { router } from './init';

/** The root router only composes; each domain owns its procedures. */
export const appRouter = router({
  auth: authRouter,
});

export type AppRouter = typeof appRouter;
