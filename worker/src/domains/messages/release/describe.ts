import type { StoredRule } from '@afterword/db/schema';
import { humanTime } from '../../../lib/human-time';

/** Human texts for the state history and owner notices: they say *why*. */
export function describeRule(rule: StoredRule): string {
  switch (rule.trigger_type) {
    case 'missed_checkins': {
      const n = Number(rule.trigger_value);
      return `${n} missed check-in${n === 1 ? '' : 's'}`;
    }
    case 'fixed_date':
      return `the date ${/^\d{4}-\d{2}-\d{2}$/.test(rule.trigger_value) ? rule.trigger_value : humanTime(Date.parse(rule.trigger_value))}`;
    case 'delay_after_death': {
      const d = Number(rule.trigger_value);
      return d === 0 ? 'confirmed death' : `${d} day${d === 1 ? '' : 's'} after confirmed death`;
    }
    case 'recipient_birthday':
      return `the recipient's birthday (${rule.trigger_value}) after confirmed death`;
  }
}
