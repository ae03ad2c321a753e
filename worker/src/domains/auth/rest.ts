import { Hono } from 'hono';
import { ZLoginInput, ZRegisterInput } from '../../contracts/auth';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { finishGoogleSignIn, startGoogleSignIn } from './google-sign-in';
import { loginUser } from './login-user';
import { registerUser } from './register-user';
import { revokeSession } from './sessions';
import { toMe } from './user-profile';

/** SPEC section 7: /api/auth/*. Each route validates with the contract and calls one service. */
export const authRoutes = new Hono<AppEnv>()
  .post('/register', async (c) => c.json(await registerUser(c.get('services'), await jsonInput(c, ZRegisterInput)), 201))
  .post('/login', async (c) =>
    c.json(await loginUser(c.get('services'), await jsonInput(c, ZLoginInput), c.get('clientAddress'))),
  )
  .get('/me', (c) => c.json(toMe(requirePrincipal(c.get('principal')).user)))
  .post('/logout', async (c) => {
    await revokeSession(c.get('services'), requirePrincipal(c.get('principal')).sessionId);
    return c.json({ ok: true });
  })
  .get('/google', (c) => startGoogleSignIn(c))
  .get('/google/callback', (c) => finishGoogleSignIn(c));
