import { LEGACY_PARTS } from '@afterword/db/enums';
import { z } from 'zod';
import { ZUserId } from './messages';

/** At most this many heirs: a copy is a whole archive each. */
export const MAX_HEIRS = 10;

export const ZLegacyPart = z.enum(LEGACY_PARTS);
export type TLegacyPart = z.infer<typeof ZLegacyPart>;

/** What each part holds, in one sentence (the API docs and the Dead-man page). */
export const LEGACY_PART_TEXT: Record<TLegacyPart, string> = {
  account: 'Your profile: name, email, time zone and settings (never your password).',
  messages: 'The messages you wrote, to anyone, with their recordings and attachments and their history.',
  vault: 'Your vault files and to whom and when each was to go.',
  history: 'Your check-in history and activity log.',
};

export const ZHeirInput = z.object({
  recipient_user_id: ZUserId,
  parts: z
    .array(ZLegacyPart, { message: 'parts must be a list' })
    .min(1, { message: 'Choose at least one part to leave' })
    .refine((p) => new Set(p).size === p.length, { message: 'Each part once' }),
});

/** POST /api/deadman/heirs: the whole list, replacing the previous one (an empty list removes everyone). */
export const ZHeirsInput = z.object({
  heirs: z
    .array(ZHeirInput, { message: 'heirs must be a list' })
    .max(MAX_HEIRS, { message: `At most ${MAX_HEIRS} people` })
    .refine((h) => new Set(h.map((x) => x.recipient_user_id.toLowerCase())).size === h.length, { message: 'Each person once' }),
});
export type THeirsInput = z.input<typeof ZHeirsInput>;

export const ZHeirView = z.object({ recipient_user_id: z.string(), name: z.string(), parts: z.array(ZLegacyPart) });
export const ZHeirs = z.object({ heirs: z.array(ZHeirView) });
export type THeirs = z.infer<typeof ZHeirs>;

/** A copy left to the caller (GET /api/legacy-copies). */
export const ZLegacyCopyView = z.object({
  id: z.string(),
  from: z.string(),
  parts: z.array(ZLegacyPart),
  status: z.enum(['pending', 'ready']),
  size: z.number().nullable(),
  created_at: z.string(),
  ready_at: z.string().nullable(),
});
export type TLegacyCopyView = z.infer<typeof ZLegacyCopyView>;

/** Rules the heirs list is held to (422 on the field). */
export const HEIR_ERRORS = {
  self: 'You cannot leave a copy to yourself',
  /** Answered as a 404: an id that is not one of your contacts tells nothing of whose it is. */
  notContact: 'None of your contacts has this id: add them as a contact first',
} as const;
