import { Hono } from 'hono';
import type { AppEnv } from '../../middleware/context';
import { finishGoogleSignIn, startGoogleSignIn } from './google-sign-in';

/**
 * GET /api/auth/google and /google/callback: browser navigations that answer with redirects and
 * cookies, so plain routes (documented in openapi/routes/auth.ts). Every other /api/auth/* route is an
 * operation (operations.ts).
 */
export const googleSignInRoutes = new Hono<AppEnv>().get('/google', (c) => startGoogleSignIn(c)).get('/google/callback', (c) => finishGoogleSignIn(c));
