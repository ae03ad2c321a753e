import { z } from 'zod';

export const DISPLAY_NAME_MAX = 100;
export const PHONE_CODE_LENGTH = 6;
export const PHONE_CODE_TTL_SECONDS = 10 * 60;
export const PHONE_CODE_MAX_ATTEMPTS = 5;
/** A new code for the same account no sooner than this after the last one. */
export const PHONE_CODE_RESEND_SECONDS = 60;
/** At most this many codes per account per hour: each one is a paid SMS. */
export const PHONE_CODES_PER_HOUR = 5;

function isTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const ZTimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'time_zone must be an IANA time zone such as Europe/Berlin' })
  .meta({ description: 'An IANA time zone', format: 'iana-time-zone', examples: ['Europe/Berlin'] });

/** PATCH /api/profile. */
export const ZProfileUpdate = z.object({
  display_name: z
    .string()
    .trim()
    .max(DISPLAY_NAME_MAX, { message: `display_name must be at most ${DISPLAY_NAME_MAX} characters` })
    .optional(),
  time_zone: ZTimeZone.optional(),
});
export type TProfileUpdate = z.input<typeof ZProfileUpdate>;

/** E.164: + then up to 15 digits, no leading zero. Spaces, dashes and brackets are dropped first. */
export const ZPhoneE164 = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s\-().]/g, ''))
  .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, { message: 'phone must be in E.164 form, e.g. +14155550100' }))
  .meta({
    description: 'E.164, e.g. +14155550100; spaces, dashes, dots and brackets are dropped first',
    // The E.164 rule over what is left once the separators are dropped.
    pattern: '^[\\s().-]*\\+[\\s().-]*[1-9]([\\s().-]*\\d){6,14}[\\s().-]*$',
    examples: ['+14155550100'],
  });

/** POST /api/profile/phone: send a code to this number. */
export const ZStartPhoneVerification = z.object({ phone: ZPhoneE164 });
/** POST /api/profile/phone/verify. */
export const ZVerifyPhone = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { message: 'code must be the 6 digits we sent' }),
});

/** GET|PATCH /api/profile, and the answer of the phone routes that settle a number. */
export const ZProfileView = z.object({
  id: z.string(),
  email: z.string(),
  display_name: z.string(),
  time_zone: z.string(),
  phone: z.string().nullable(),
  phone_verified: z.boolean(),
  pending_phone: z.string().nullable().describe('A verification in progress: the number the code went to'),
});
export type ProfileView = z.infer<typeof ZProfileView>;

/** POST /api/profile/phone: the profile with the pending number, and when the code lapses or may be resent. */
export const ZPhoneVerificationStarted = ZProfileView.extend({ code_expires_at: z.string(), resend_available_at: z.string() });
export type PhoneVerificationStarted = z.infer<typeof ZPhoneVerificationStarted>;
