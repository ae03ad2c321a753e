import { describe, expect, it } from 'vitest';
import { describeRule, excerpt, localDateTimeToIso, localDateToIso, NO_WORDS } from './format';
import { toRuleInput } from './rules-editor';

describe('message formats', () => {
  it('turns a datetime-local value into ISO 8601 with the browser offset for that moment', () => {
    const iso = localDateTimeToIso('2026-01-10T23:45')!;
    expect(iso).toMatch(/^2026-01-10T23:45:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(iso)).toBe(new Date(2026, 0, 10, 23, 45).getTime());
    expect(localDateTimeToIso('')).toBeNull();
    expect(localDateTimeToIso('   ')).toBeNull();
    expect(localDateTimeToIso('soon')).toBe('soon'); // the server says what is wrong with it
  });

  it('sends a fixed date as the start of that day in the browser zone', () => {
    const iso = localDateToIso('2026-07-01');
    expect(Date.parse(iso)).toBe(new Date(2026, 6, 1).getTime());
    expect(toRuleInput({ key: 1, trigger_type: 'fixed_date', value: '2026-07-01', expire: '' })).toEqual({ trigger_type: 'fixed_date', trigger_value: iso });
    expect(toRuleInput({ key: 2, trigger_type: 'missed_checkins', value: ' 3 ', expire: ' 2 ' })).toEqual({
      trigger_type: 'missed_checkins',
      trigger_value: '3',
      expire_window: '2',
    });
  });

  it('describes rules in plain words', () => {
    expect(describeRule({ trigger_type: 'missed_checkins', trigger_value: '1', expire_window: null })).toBe('After 1 missed check-in');
    expect(describeRule({ trigger_type: 'missed_checkins', trigger_value: '3', expire_window: 2 })).toBe(
      'After 3 missed check-ins; cancelled if you check in within 2 days',
    );
    expect(describeRule({ trigger_type: 'delay_after_death', trigger_value: '7', expire_window: null })).toBe('7 days after death');
    expect(describeRule({ trigger_type: 'fixed_date', trigger_value: '2026-07-01', expire_window: null })).toMatch(/^On .*2026/);
  });

  it('shortens the first line for lists', () => {
    expect(excerpt({ content: 'Hello\nsecond line', use_e2ee: false, has_audio: false })).toBe('Hello');
    expect(excerpt({ content: '', use_e2ee: false, has_audio: true })).toBe('Voice recording');
    expect(excerpt({ content: 'x'.repeat(200), use_e2ee: false, has_audio: false }).length).toBe(90);
  });
});

describe('a message with no words', () => {
  it('says to open it (a vault file, files alone), not "(No text)"', () => {
    expect(excerpt({ content: '', use_e2ee: false, has_audio: false })).toBe(NO_WORDS);
    expect(excerpt({ content: '  ', use_e2ee: false, has_audio: true })).toBe('Voice recording');
  });
});
