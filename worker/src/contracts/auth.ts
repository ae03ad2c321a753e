import { z } from 'zod';
import {
  DATA_POLICY_REGIONS,
  EU_MEMBER_STATES,
  INTL_JURISDICTION_MAX,
  US_STATES,
} from './regions';

/** Trimmed, lower-cased email (DESIGN section 1: one account per email). */
export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address' }).max(254));

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** Registration password: length only here; the common-password list is checked by the service. */
export const ZNewPassword = z
  .string()
  .min(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `Password must be at most ${PASSWORD_MAX} characters` });

/**
 * POST /api/auth/register. `legal_jurisdiction` is optional and blank means absent (SPEC section 3:
 * sent only when non-blank after trimming); each region accepts only its own list (SPEC section 5).
 */
export const ZRegisterInput = z
  .object({
    email: ZEmail,
    password: ZNewPassword,
    data_policy_region: z.enum(DATA_POLICY_REGIONS),
    legal_jurisdiction: z
      .string()
      .trim()
      .optional()
      .nullable()
      .transform((v) => (v ? v : undefined)),
  })
  .superRefine((input, ctx) => {
    const j = input.legal_jurisdiction;
    const issue = (message: string) =>
      ctx.addIssue({ code: 'custom', path: ['legal_jurisdiction'], message });
    switch (input.data_policy_region) {
      case 'US-HIPAA':
        if (!j || !(US_STATES as readonly string[]).includes(j)) issue('US-HIPAA requires a US state from the list');
        break;
      case 'EU-GDPR':
        if (!j || !(EU_MEMBER_STATES as readonly string[]).includes(j)) issue('EU-GDPR requires an EU member state from the list');
        break;
      case 'INTL-General':
        if (j && j.length > INTL_JURISDICTION_MAX) issue(`Jurisdiction must be at most ${INTL_JURISDICTION_MAX} characters`);
        break;
    }
  });
export type TRegisterInput = z.input<typeof ZRegisterInput>;

/** POST /api/auth/login (SPEC section 5: both required, email in email format). */
export const ZLoginInput = z.object({
  email: ZEmail,
  password: z.string().min(1, { message: 'Password is required' }).max(PASSWORD_MAX),
});
export type TLoginInput = z.input<typeof ZLoginInput>;

export const ZLoginResult = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export type TLoginResult = z.infer<typeof ZLoginResult>;

export const PLANS = ['free', 'plus', 'pro', 'immortality'] as const;

/** GET /api/auth/me. */
export const ZMe = z.object({
  id: z.string(),
  email: z.string(),
  data_policy_region: z.enum(DATA_POLICY_REGIONS),
  legal_jurisdiction: z.string().nullable(),
  plan: z.enum(PLANS),
  created_at: z.string(),
});
export type TMe = z.infer<typeof ZMe>;
