import { birthdayMonthDay, type VaultConditionType } from '@afterword/worker/contracts/vault';
import { localDateTimeToIso } from '../messages/format';
import { T } from './texts';

/** What the condition part of the form holds, as typed. */
export interface ConditionDraft {
  type: VaultConditionType;
  /** A month-day (MM-DD) or a full date: only MM-DD is sent. */
  birthday: string;
  everyYear: boolean;
  /** A datetime-local value, read in the browser's time zone. */
  exactAt: string;
}

export type ConditionResult =
  | { ok: true; condition_type: VaultConditionType; condition_value: string | null; every_year: boolean }
  | { ok: false; field: 'birthday' | 'exactAt'; message: string };

/**
 * The condition as assign takes it. docs/product.md "Vault": a birthday condition keeps
 * month and day only, so a full date leaves the browser as MM-DD; the contract's own parser decides what counts.
 */
export function conditionInput(draft: ConditionDraft, now = Date.now()): ConditionResult {
  if (draft.type === 'death_flag') return { ok: true, condition_type: 'death_flag', condition_value: null, every_year: false };
  if (draft.type === 'recipient_birthday') {
    const monthDay = birthdayMonthDay(draft.birthday);
    if (!monthDay) return { ok: false, field: 'birthday', message: T.birthdayInvalid };
    return { ok: true, condition_type: 'recipient_birthday', condition_value: monthDay, every_year: draft.everyYear };
  }
  const at = localDateTimeToIso(draft.exactAt);
  if (!at) return { ok: false, field: 'exactAt', message: T.exactRequired };
  const ms = Date.parse(at);
  if (!Number.isFinite(ms) || ms <= now) return { ok: false, field: 'exactAt', message: T.exactPast };
  return { ok: true, condition_type: 'exact_date', condition_value: at, every_year: false };
}
