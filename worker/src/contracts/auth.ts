import { z } from 'zod';
import { DATA_POLICY_REGIONS, EU_MEMBER_STATES, INTL_JURISDICTION_MAX, US_STATES } from './regions';
import { ZKeyBundle, ZPublicKeyJwk, ZWrappedPrivateKey } from './e2ee';

/** Trimmed, lower-cased email (docs/server-rules.md "Accounts, sessions and errors": one account per email). */
export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address' }).max(254))
  .meta({ format: 'email', maxLength: 254 });

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** Registration password: length only here; the common-password list is checked by the service. */
export const ZNewPassword = z
  .string()
  .min(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `Password must be at most ${PASSWORD_MAX} characters` });

/** JSON Schema's `if`/`then`: when `data_policy_region` is `region`, the body also satisfies `rule`. */
const forRegion = (region: (typeof DATA_POLICY_REGIONS)[number], rule: Record<string, unknown>) => ({
  if: { properties: { data_policy_region: { const: region } }, required: ['data_policy_region'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a schema object that no code awaits
  then: rule,
});

/**
 * POST /api/auth/register. `legal_jurisdiction` is optional and blank means absent (sent only when
 * non-blank after trimming); each region accepts only its own list (both: docs/product.md "Accounts and sign-in").
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
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['legal_jurisdiction'], message });
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
  })
  // The same rule for the document: which jurisdictions each region accepts.
  .meta({
    allOf: [
      forRegion('US-HIPAA', { required: ['legal_jurisdiction'], properties: { legal_jurisdiction: { enum: [...US_STATES] } } }),
      forRegion('EU-GDPR', { required: ['legal_jurisdiction'], properties: { legal_jurisdiction: { enum: [...EU_MEMBER_STATES] } } }),
      forRegion('INTL-General', { properties: { legal_jurisdiction: { type: ['string', 'null'], maxLength: INTL_JURISDICTION_MAX } } }),
    ],
  });
export type TRegisterInput = z.input<typeof ZRegisterInput>;

/** POST /api/auth/login (docs/product.md "Accounts and sign-in": both required, email in email format). */
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

/**
 * GET /api/auth/google?client_state=…: a random value the login page keeps in sessionStorage before it
 * leaves for Google. The server carries it through its flow cookie and hands it back next to the token
 * (`/login#access_token=…&state=…`), so the page can tell its own sign-in from a planted
 * `/login#access_token=…` link (login CSRF). URL-safe so it travels unescaped; at least 128 bits.
 */
export const ZGoogleSignInStart = z.object({
  client_state: z
    .string()
    .regex(/^[A-Za-z0-9_-]{22,128}$/, { message: 'client_state must be 22 to 128 URL-safe characters (A–Z, a–z, 0–9, _ and -)' })
    .optional(),
});
export type TGoogleSignInStart = z.infer<typeof ZGoogleSignInStart>;

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

/*
 * Password change and reset (docs/server-rules.md "Accounts, sessions and errors",
 * docs/server-rules.md "End-to-end encryption"). An account with E2EE keys keeps its private key wrapped under
 * the password, so a new password comes with the key re-wrapped in the browser.
 */

/** A `password_wrap` as the key-bundle contract defines it (PBKDF2 only). */
export const ZPasswordWrap = ZKeyBundle.shape.password_wrap;

/** POST /api/auth/password: `password_wrap` is required when the account has keys, refused when it has none. */
export const ZChangePassword = z.object({
  current_password: z.string({ message: 'current_password is required' }).min(1, { message: 'current_password is required' }).max(PASSWORD_MAX),
  new_password: ZNewPassword,
  password_wrap: ZPasswordWrap.optional(),
});
export type TChangePassword = z.input<typeof ZChangePassword>;

/**
 * PUT /api/keys/me/recovery: a new recovery key replaces the old one. The private key is re-wrapped in the
 * browser under the new key; the password proves the caller is the owner, so a stolen session cannot swap
 * the recovery key for one only the thief holds (or for garbage).
 */
export const ZReplaceRecoveryKey = z.object({
  current_password: ZChangePassword.shape.current_password,
  recovery_wrap: ZKeyBundle.shape.recovery_wrap,
});
export type TReplaceRecoveryKey = z.input<typeof ZReplaceRecoveryKey>;

/** POST /api/auth/password-reset/request: always answered 202, whether or not the account exists. */
export const ZPasswordResetRequest = z.object({ email: ZEmail });

/** The token from the emailed link (`/reset-password?token=…`). */
export const ZResetToken = z
  .string({ message: 'token is required' })
  .trim()
  .min(1, { message: 'token is required' })
  .max(200, { message: 'token is not a reset token' });

/** POST /api/auth/password-reset/inspect. */
export const ZPasswordResetInspect = z.object({ token: ZResetToken });

/**
 * The keys sent with a reset: `{password_wrap}` alone (the recovery key opened the old private key,
 * re-wrapped under the new password) or a whole new bundle (no recovery key: what the old keys sealed
 * becomes unreadable).
 */
export const ZResetKeyBundle = z
  .object({
    public_key: ZPublicKeyJwk.optional(),
    password_wrap: ZPasswordWrap,
    recovery_wrap: ZKeyBundle.shape.recovery_wrap.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.public_key === undefined) !== (b.recovery_wrap === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [b.public_key === undefined ? 'public_key' : 'recovery_wrap'],
        message: 'send either password_wrap alone (same keys, re-wrapped) or a whole new bundle: public_key, password_wrap and recovery_wrap',
      });
    }
  });
export type TResetKeyBundle = z.output<typeof ZResetKeyBundle>;

/** POST /api/auth/password-reset/confirm. */
export const ZPasswordResetConfirm = z.object({
  token: ZResetToken,
  new_password: ZNewPassword,
  key_bundle: ZResetKeyBundle.optional()
    .nullable()
    .transform((v) => v ?? undefined),
});
export type TPasswordResetConfirm = z.input<typeof ZPasswordResetConfirm>;

/** What the reset page needs to let the browser open the old private key with the recovery key. */
export const ZPasswordResetInspection = z.object({ email: z.string(), has_keys: z.boolean(), recovery_wrap: ZWrappedPrivateKey.nullable() });
export type PasswordResetInspection = z.infer<typeof ZPasswordResetInspection>;

/** A reset link works this long, once. */
export const PASSWORD_RESET_TTL_MINUTES = 30;
/** Reset emails per address per hour; requests past it are answered 202 like any other, and send nothing. */
export const PASSWORD_RESET_EMAILS_PER_HOUR = 3;
/** Reset requests per client address per hour (any emails): past it, 429. */
export const PASSWORD_RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 20;
