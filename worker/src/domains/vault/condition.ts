import type { StoredRule } from '@afterword/db/schema';
import type { VaultConditionType } from '../../contracts/vault';

/**
 * A vault condition as a release-engine rule, so an item is released by the engine that releases
 * messages (docs/decisions/vault.md): an exact date is a fixed date, the death flag a delay of 0 days
 * after the confirmed death, a birthday the engine's `recipient_birthday` rule.
 */
export function ruleOf(type: VaultConditionType, value: string | null): StoredRule {
  if (type === 'exact_date') return { trigger_type: 'fixed_date', trigger_value: value!, expire_window: null, fired_at: null };
  if (type === 'death_flag') return { trigger_type: 'delay_after_death', trigger_value: '0', expire_window: null, fired_at: null };
  return { trigger_type: 'recipient_birthday', trigger_value: value!, expire_window: null, fired_at: null };
}

const DAY_MONTH = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });

/** "14 May" of `05-14` (read in 2000, a leap year, so 02-29 is a day). */
export function monthDayText(monthDay: string): string {
  const [m, d] = monthDay.split('-').map(Number) as [number, number];
  return DAY_MONTH.format(Date.UTC(2000, m - 1, d));
}

/** When, in plain words, as the owner's list shows it. */
export function conditionText(type: VaultConditionType, value: string | null, everyYear: boolean): string {
  if (type === 'death_flag') return 'When my death is confirmed';
  if (type === 'exact_date') return `On ${value}`;
  const day = monthDayText(value!);
  const leap = value === '02-29' ? ' (28 February in other years)' : '';
  return `On their birthday, ${day}${leap}, after my death is confirmed${everyYear ? ', then every year' : ''}`;
}
