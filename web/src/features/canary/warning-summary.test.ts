import { describe, expect, it } from 'vitest';
import { warningSummary } from './warning-summary';

const at = (hhmm: string) => `2026-11-27T${hhmm}:00.000Z`;
/** The clock as the test reads it: the UTC hours and minutes of the ISO time. */
const hhmm = (iso: string) => iso.slice(11, 16);
const d = (channel: 'email' | 'sms' | 'push' | 'in_app', ok: boolean, hhmm: string) => ({ channel, address: 'x', ok, error: ok ? null : 'down', at: at(hhmm) });

describe('where a warning went, in one line', () => {
  it('names each channel that accepted it, with its time, and counts devices', () => {
    expect(
      warningSummary({ delivered_at: at('14:02'), deliveries: [d('email', true, '14:02'), d('push', true, '14:02'), d('push', true, '14:03')] }, hhmm),
    ).toBe('Emailed you 14:02 · push to 2 devices 14:02');
  });

  it('shows a channel that failed next to the one that carried it', () => {
    expect(warningSummary({ delivered_at: at('14:02'), deliveries: [d('email', false, '14:01'), d('sms', true, '14:02')] }, hhmm)).toBe(
      'Texted you 14:02 · email failed 14:01',
    );
  });

  it('says so when nothing reached the owner yet', () => {
    expect(warningSummary({ delivered_at: null, deliveries: [d('email', false, '14:01'), d('sms', false, '14:01')] }, hhmm)).toBe(
      'Email failed 14:01 · SMS failed 14:01 · not delivered yet — trying again',
    );
    expect(warningSummary({ delivered_at: null, deliveries: [] }, hhmm)).toBe('Waiting to be sent');
  });
});
