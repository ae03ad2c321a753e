import { Hono } from 'hono';
import { ZChangePassword, ZLoginInput, ZPasswordResetConfirm, ZPasswordResetInspect, ZPasswordResetRequest, ZRegisterInput } from '../../contracts/auth';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { changePassword } from './change-password';
import { finishGoogleSignIn, startGoogleSignIn } from './google-sign-in';
import { loginUser } from './login-user';
import { confirmPasswordReset, inspectPasswordReset, requestPasswordReset } from './password-reset';
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
  .post('/password', async (c) => {
    const { user, sessionId } = requirePrincipal(c.get('principal'));
    return c.json(await changePassword(c.get('services'), user, sessionId, await jsonInput(c, ZChangePassword), c.get('clientAddress')));
  })
  .post('/password-reset/request', async (c) => {
    const { email } = await jsonInput(c, ZPasswordResetRequest);
    return c.json(await requestPasswordReset(c.get('services'), email, c.get('clientAddress')), 202);
  })
  .post('/password-reset/inspect', async (c) => c.json(await inspectPasswordReset(c.get('services'), (await jsonInput(c, ZPasswordResetInspect)).token)))
  .post('/password-reset/confirm', async (c) =>
    c.json(await confirmPasswordReset(c.get('services'), await jsonInput(c, ZPasswordResetConfirm), c.get('clientAddress'))),
  )
  .get('/google', (c) => startGoogleSignIn(c))
  .get('/google/callback', (c) => finishGoogleSignIn(c));
