import { Hono } from 'hono';
import { ZProfileUpdate, ZStartPhoneVerification, ZVerifyPhone } from '../../contracts/profile';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { getProfile } from './profile-view';
import { removePhone } from './remove-phone';
import { startPhoneVerification } from './start-phone-verification';
import { updateProfile } from './update-profile';
import { verifyPhone } from './verify-phone';

/** /api/profile: name, time zone and the verified phone that sms and call deliveries use. */
export const profileRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await getProfile(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .patch('/', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await updateProfile(c.get('services'), user.id, await jsonInput(c, ZProfileUpdate)));
  })
  .post('/phone', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const { phone } = await jsonInput(c, ZStartPhoneVerification);
    return c.json(await startPhoneVerification(c.get('services'), user.id, phone));
  })
  .post('/phone/verify', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const { code } = await jsonInput(c, ZVerifyPhone);
    return c.json(await verifyPhone(c.get('services'), user.id, code));
  })
  .delete('/phone', async (c) => c.json(await removePhone(c.get('services'), requirePrincipal(c.get('principal')).user.id)));
