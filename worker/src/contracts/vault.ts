import { z } from 'zod';
import { formConsent } from './form-fields';
import { MESSAGE_STATUSES, VAULT_CONDITION_TYPES } from '@afterword/db/enums';
import { AES_GCM_IV_BYTES, ATTACHMENT_MAX_BYTES, ATTACHMENT_NAME_MAX, cleanFileName, decodeBase64Any } from './attachments';
import { parseIsoInstant, ZPaused } from './messages';
import { ZPublicKeyView } from './e2ee';

export { VAULT_CONDITION_TYPES };
export type VaultConditionType = (typeof VAULT_CONDITION_TYPES)[number];

/*
 * The vault (docs/product.md "Vault", docs/server-rules.md "Vault", docs/decisions/vault.md): a file encrypted in
 * the browser (AES-GCM-256, 12-byte IV) whose key is sealed in a v1 envelope (contracts/e2ee.ts) for the
 * owner and the recipient, given to one recipient under a condition.
 */

/** Per file, as for attachments: the Worker reads the upload in memory (docs/api.md "Vault"). */
export const VAULT_FILE_MAX_BYTES = ATTACHMENT_MAX_BYTES;
/** The multipart body: the file, the envelope (at most 560,000 characters) and the short fields. */
export const VAULT_CREATE_MAX_BODY_BYTES = VAULT_FILE_MAX_BYTES + 640 * 1024;
export const VAULT_ENVELOPE_MAX_CHARS = 560_000;
export const LEGAL_NOTE_MAX = 2000;

export const CONDITION_LABELS: Record<VaultConditionType, string> = {
  recipient_birthday: "Recipient's birthday",
  exact_date: 'Exact date',
  death_flag: 'After my death is confirmed',
};

export const VAULT_ERRORS = {
  consent: 'consent must be true: confirm that you have the right to store this file and to give it to the recipient',
  noOwnerWrap: 'The envelope has no key for you: it needs a recipients entry whose kid is your user id, so you can open your own file',
  noRecipientWrap: 'The file’s envelope has no key for the recipient: encrypt it again for this recipient (a recipients entry whose kid is recipient_user_id)',
  recipientHasNoKeys: 'The recipient has not set up encryption keys yet',
  ownRecipient: 'recipient_user_id is you: a vault item is for someone else',
  birthday: 'condition_value must be a month-day (MM-DD) or a date (YYYY-MM-DD) for a birthday',
  exactDate: 'condition_value must be an ISO date (YYYY-MM-DD) or date-time for an exact date',
  pastDate: 'condition_value must be in the future',
  deathFlagValue: 'condition_value must be empty for death_flag (it is released when your death is confirmed)',
  everyYear: 'every_year is only for recipient_birthday items',
} as const;

const legalNote = z
  .string({ message: 'legal_note must be text' })
  .max(LEGAL_NOTE_MAX, { message: `legal_note must be at most ${LEGAL_NOTE_MAX.toLocaleString('en-US')} characters` })
  .optional()
  .nullable()
  .transform((v) => (v?.trim() ? v.trim() : null));

const consent = formConsent(VAULT_ERRORS.consent);

/** POST /api/vault/create: the text fields of the multipart body (`file` is checked apart: it is bytes). */
export const ZVaultCreateFields = z.object({
  consent,
  legal_note: legalNote,
  iv: z
    .string({ message: 'iv is required: the base64 12-byte IV the file was encrypted with (vault files are end-to-end encrypted)' })
    .trim()
    .refine((v) => decodeBase64Any(v)?.byteLength === AES_GCM_IV_BYTES, {
      message: `iv must be base64 (standard or url-safe) of exactly ${AES_GCM_IV_BYTES} bytes`,
    }),
  envelope: z
    .string({ message: 'envelope is required: the v1 envelope (JSON) sealing the file key for you and the recipient' })
    .max(VAULT_ENVELOPE_MAX_CHARS, { message: `envelope must be at most ${VAULT_ENVELOPE_MAX_CHARS.toLocaleString('en-US')} characters` }),
  name: z
    .string()
    .max(ATTACHMENT_NAME_MAX, { message: `name must be at most ${ATTACHMENT_NAME_MAX} characters` })
    .optional()
    .transform((v) => (v?.trim() ? cleanFileName(v) : undefined)),
});
export type TVaultCreateFields = z.output<typeof ZVaultCreateFields>;

/** The 201 answer of POST /api/vault/create. */
export const ZVaultAsset = z.object({
  asset_id: z.string(),
  size: z.number().int(),
  name: z.string(),
  iv: z.string(),
  legal_note: z.string().nullable(),
  assigned: z.boolean(),
  created_at: z.string(),
});
export type VaultAssetView = z.infer<typeof ZVaultAsset>;

const MONTH_DAY = /^(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `MM-DD` of a month-day or of a full date (the year is dropped), or null. 02-29 is a birthday. */
export function birthdayMonthDay(value: string): string | null {
  const v = value.trim();
  const md = MONTH_DAY.exec(v);
  if (md) {
    const [month, day] = [Number(md[1]), Number(md[2])];
    return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]! ? v : null;
  }
  return parseIsoInstant(v) ? v.slice(5, 10) : null;
}

/** POST /api/vault/assign. `condition_value` comes out canonical: MM-DD, the ISO instant, or null. */
export const ZVaultAssignInput = z
  .object({
    asset_id: z
      .string({ message: 'asset_id is required' })
      .trim()
      .uuid({ message: 'asset_id must be a vault asset id (a UUID)' })
      .transform((v) => v.toLowerCase()),
    recipient_user_id: z
      .string({ message: 'recipient_user_id is required' })
      .trim()
      .uuid({ message: 'recipient_user_id must be a user id (a UUID)' })
      .transform((v) => v.toLowerCase()),
    condition_type: z.enum(VAULT_CONDITION_TYPES, { message: `condition_type must be one of ${VAULT_CONDITION_TYPES.join(', ')}` }),
    condition_value: z.string({ message: 'condition_value must be text' }).trim().optional().nullable(),
    legal_note: legalNote,
    /** Birthday items only: again on every birthday after the first. */
    every_year: z.boolean({ message: 'every_year must be true or false' }).default(false),
  })
  .transform((input, ctx) => {
    const issue = (message: string, path = 'condition_value') => {
      ctx.addIssue({ code: 'custom', message, path: [path] });
      return z.NEVER;
    };
    const raw = input.condition_value ?? '';
    if (input.every_year && input.condition_type !== 'recipient_birthday') return issue(VAULT_ERRORS.everyYear, 'every_year');
    if (input.condition_type === 'death_flag') return raw === '' ? { ...input, condition_value: null } : issue(VAULT_ERRORS.deathFlagValue);
    if (input.condition_type === 'recipient_birthday') {
      const md = birthdayMonthDay(raw);
      return md ? { ...input, condition_value: md } : issue(VAULT_ERRORS.birthday);
    }
    const at = parseIsoInstant(raw);
    return at ? { ...input, condition_value: raw } : issue(VAULT_ERRORS.exactDate);
  });
export type TVaultAssignInput = z.input<typeof ZVaultAssignInput>;
export type TVaultAssign = z.output<typeof ZVaultAssignInput>;

/** Where a vault item stands: the status of its (latest) message in the release engine. */
export const ZVaultItemView = z.object({
  id: z.string(),
  asset_id: z.string(),
  recipient_user_id: z.string(),
  recipient_name: z.string().nullable(),
  recipient_email: z.string(),
  condition_type: z.enum(VAULT_CONDITION_TYPES),
  condition_value: z.string().nullable(),
  every_year: z.boolean(),
  legal_note: z.string().nullable(),
  name: z.string(),
  size: z.number().int(),
  status: z.enum(MESSAGE_STATUSES),
  /** `consent_withdrawn` while the owner's messages consent is withdrawn and the item is not released. */
  paused: ZPaused,
  /** The release engine's message carrying the item (its history and delivery log are the message's). */
  message_id: z.string(),
  released_at: z.string().nullable(),
  /** A plain-words "when": "On 14 May after my death is confirmed" and the like. */
  condition_text: z.string(),
  qr_code_url: z.string(),
  claim_url: z.string(),
  created_at: z.string(),
});
export type VaultItemView = z.infer<typeof ZVaultItemView>;

/** GET /api/vault/claim/{token} (public): what a visitor may know. Nothing of the content, ever. */
export const ZVaultClaimView = z.object({
  /** waiting: not released yet; released: in the recipient's Inbox; withdrawn: the owner deleted or cancelled it. */
  state: z.enum(['waiting', 'released', 'withdrawn']),
  /** null when nobody is signed in; otherwise whether the signed-in person is the recipient. */
  for_you: z.boolean().nullable(),
  /** Only for the recipient, signed in. */
  from_name: z.string().nullable(),
  /** Only for the recipient, once released: the Inbox message to open. */
  message_id: z.string().nullable(),
});
export type VaultClaimView = z.infer<typeof ZVaultClaimView>;

/** The claim token of a QR code: 32 base64url characters (192 bits). */
export const ZClaimTokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32}$/, { message: 'Not a claim link' }) });

/** GET /api/vault/sealing-keys: whom the file will be given to. */
export const ZVaultSealingKeysQuery = z.object({
  recipient_user_id: z
    .string({ message: 'recipient_user_id is required' })
    .trim()
    .uuid({ message: 'recipient_user_id must be a user id (a UUID)' })
    .transform((v) => v.toLowerCase()),
});

/**
 * The two public keys a vault file's envelope is sealed for: the owner's (so the owner can read it back) and
 * the recipient's. Each `user_id` is the `kid` of its reader in the envelope (docs/security/e2ee.md).
 */
export const ZVaultSealingKeys = z.object({ owner: ZPublicKeyView, recipient: ZPublicKeyView });
export type VaultSealingKeys = z.infer<typeof ZVaultSealingKeys>;
