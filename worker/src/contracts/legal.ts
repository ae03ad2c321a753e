import { z } from 'zod';
import { CONSENT_KINDS } from '@afterword/db/enums';

/** GET /api/legal/deletions items (docs/product.md "Data rights and consents": type, id, deletion_date). */
export const ZScheduledDeletion = z.object({
  type: z.string(),
  id: z.string(),
  deletion_date: z.string(),
  status: z.enum(['armed', 'scheduled']),
  reason: z.string(),
});
export type TScheduledDeletion = z.infer<typeof ZScheduledDeletion>;

/** GET /api/legal/deletions. */
export const ZScheduledDeletions = z.object({ items: z.array(ZScheduledDeletion) });
export type TScheduledDeletions = z.infer<typeof ZScheduledDeletions>;

/** The kinds of processing a user consents to; a path `{id}` of /api/legal/consent/{id}. */
export const ZConsentKind = z.enum(CONSENT_KINDS);
export type TConsentKind = z.infer<typeof ZConsentKind>;

/** What withdrawing each kind stops, in one plain sentence (the Data Consents page and the API docs). */
export const CONSENT_STOPS: Record<TConsentKind, string> = {
  messages: 'No new messages or vault items, and scheduled releases are paused until you allow it again.',
  confessions: 'Your confession capsules are unpublished and no new ones are made.',
  voice: 'No voice uploads, training or persona replies, and your voice profile and samples are deleted.',
  video: 'No video items are made or kept for release.',
  guardian: 'Your guardians are not asked about you and cannot report your death.',
};

/**
 * The withdrawals that erase something for good (the rest only pause): what goes, in words. The Data
 * Consents page asks before them; domains/legal/consents.ts does the erasing.
 */
export const CONSENT_ERASES: Partial<Record<TConsentKind, string>> = {
  voice: 'Your voice profile, every recorded sample and your persona’s answers are deleted now.',
};

/** One consent: granted or withdrawn, and when it last changed (null: granted at sign-up, never changed). */
export const ZConsent = z.object({
  id: ZConsentKind,
  consent: z.boolean(),
  updated_at: z.string().nullable(),
});
export type TConsent = z.infer<typeof ZConsent>;

/** GET /api/legal/consent: the five kinds, always in the same order. */
export const ZConsents = z.object({ items: z.array(ZConsent) });
export type TConsents = z.infer<typeof ZConsents>;

/** `{id}` of /api/legal/consent/{id}: a kind (anything else is 404). */
export const ZConsentParam = z.object({ id: ZConsentKind });

/** POST /api/legal/consent/{id} body. */
export const ZSetConsentBody = z.object({ consent: z.boolean() });
export type TSetConsentBody = z.infer<typeof ZSetConsentBody>;

/** GET /api/legal/consent/history: every change, newest first (GDPR article 7: consent is shown, not only kept). */
export const ZConsentChange = z.object({ kind: ZConsentKind, old: z.boolean(), new: z.boolean(), at: z.string() });
export const ZConsentHistory = z.object({ items: z.array(ZConsentChange) });
export type TConsentHistory = z.infer<typeof ZConsentHistory>;
