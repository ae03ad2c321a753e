import { z } from 'zod';

/**
 * A multipart form's consent: it arrives as text — "true", a checkbox's "on" or "1" — (JSON callers send
 * true), and only a yes passes: anything else is refused with `message`.
 */
export const formConsent = (message: string) =>
  z.preprocess((v) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '' ? false : v), z.literal(true, { message }));
