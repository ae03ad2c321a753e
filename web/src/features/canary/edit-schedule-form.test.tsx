import type { TCanary } from '@afterword/worker/contracts/canary';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EditScheduleForm, type SaveResult } from './edit-schedule-form';
import { cadenceFromForm, formOfCadence } from './schedule-draft';

const NOW = Date.parse('2026-12-02T12:00:00Z'); // a Wednesday
const base: TCanary = {
  id: 'c1',
  name: 'Walk',
  interval_seconds: 86_400,
  active: true,
  token: 't',
  last_check_in: '2026-12-02T11:00:00.000Z',
  deadline: '2026-12-03T11:00:00.000Z',
  status: 'active',
  misses: 0,
  created_at: '2026-11-01T00:00:00.000Z',
  schedule: null,
  schedule_words: null,
  paused_until: null,
};
const weekly = { kind: 'weekly' as const, days: ['mon' as const, 'thu' as const], time: '09:30', time_zone: 'Europe/Berlin', grace_seconds: 7200 };

function setup(canary: TCanary = base, answer: SaveResult = { ok: true }) {
  const onSave = vi.fn(async () => answer);
  render(<EditScheduleForm canary={canary} nowMs={NOW} onSave={onSave} pending={false} onCancel={vi.fn()} />);
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
  const after = () => screen.getByText('After saving').closest('div')!;
  return { onSave, save, after };
}

describe('EditScheduleForm', () => {
  it("is pre-filled with an interval canary's interval in hours", () => {
    setup();
    expect((screen.getByLabelText('Every few hours (an interval)') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText(/^Check-in interval \(hours\)/) as HTMLInputElement).value).toBe('24');
  });

  it("is pre-filled with a calendar canary's days, time, zone and reminder", () => {
    setup({
      ...base,
      interval_seconds: 3 * 86_400,
      schedule: weekly,
      schedule_words: 'Every Monday and Thursday by 09:30 (Europe/Berlin), reminded 2 hours before',
    });
    expect((screen.getByLabelText('On days of the week') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Monday') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Thursday') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Tuesday') as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText(/^Check in by \(time\)/) as HTMLInputElement).value).toBe('09:30');
    expect((screen.getByLabelText('Time zone') as HTMLSelectElement).value).toBe('Europe/Berlin');
    expect((screen.getByLabelText(/^Remind me before \(hours\)/) as HTMLInputElement).value).toBe('2');
  });

  it('says the next deadline under the new schedule before saving, then sends it as the PATCH body', async () => {
    const { onSave, save, after } = setup();
    expect(within(after()).getByText(/\(unchanged\)/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText('On days of the week'));
    fireEvent.change(screen.getByLabelText(/^Check in by \(time\)/), { target: { value: '10:00' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Europe/Berlin' } });
    // Checked in Wednesday 11:00 UTC; "every Monday at 10:00 Berlin" is next due Monday 7 December, 09:00 UTC (CET).
    expect(within(after()).getByText(/Every Monday by 10:00 \(Europe\/Berlin\), reminded 1 hour before/)).toBeTruthy();
    expect(after().querySelector('time')!.getAttribute('datetime')).toBe('2026-12-07T09:00:00.000Z');
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith({ schedule: { kind: 'weekly', days: ['mon'], time: '10:00', time_zone: 'Europe/Berlin', grace_seconds: 3600 } });
  });

  it('goes back to an interval with schedule null', async () => {
    const { onSave, save } = setup({ ...base, interval_seconds: 3 * 86_400, schedule: weekly, schedule_words: 'x' });
    fireEvent.click(screen.getByLabelText('Every few hours (an interval)'));
    fireEvent.change(screen.getByLabelText(/^Check-in interval \(hours\)/), { target: { value: '12' } });
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ interval_seconds: 43_200, schedule: null }));
  });

  it('warns before saving a schedule whose deadline has already passed', () => {
    setup();
    fireEvent.change(screen.getByLabelText(/^Check-in interval \(hours\)/), { target: { value: '0.5' } });
    expect(screen.getByText(/That deadline has already passed\. You will be warned at once, and nothing counts as missed until 6 minutes after/)).toBeTruthy();
  });

  it('shows a problem under its field and sends nothing', async () => {
    const { onSave, save } = setup();
    fireEvent.click(screen.getByLabelText('On days of the week'));
    fireEvent.click(screen.getByLabelText('Monday')); // no day left
    expect(screen.getByText('Complete the schedule above to see its next deadline.')).toBeTruthy();
    save();
    const days = screen.getByRole('group', { name: 'Check in by the time below on' });
    expect(await within(days).findByText('Choose at least one day of the week.')).toBeTruthy();
    expect(days.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByLabelText('Monday'));
    fireEvent.change(screen.getByLabelText(/^Remind me before \(hours\)/), { target: { value: '100' } });
    save();
    expect(await screen.findByText(/at most 84 hours before/)).toBeTruthy();
    expect(screen.getByLabelText(/^Remind me before \(hours\)/).getAttribute('aria-invalid')).toBe('true');
    expect(onSave).not.toHaveBeenCalled();
  });

  it("places the server's own field issue (a 422) under the field it names", async () => {
    const { save } = setup(base, { ok: false, fieldIssues: [{ path: ['schedule', 'time_zone'], msg: 'time_zone is not an IANA time zone' }] });
    fireEvent.click(screen.getByLabelText('On days of the week'));
    save();
    expect(await screen.findByText('time_zone is not an IANA time zone')).toBeTruthy();
    expect(screen.getByLabelText('Time zone').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('formOfCadence and cadenceFromForm', () => {
  it.each([
    weekly,
    { kind: 'monthly_day' as const, day: 31, time: '00:00', time_zone: 'America/New_York', grace_seconds: 86_400 },
    { kind: 'monthly_weekday' as const, week: 'last' as const, weekday: 'fri' as const, time: '23:59', time_zone: 'UTC', grace_seconds: 5400 },
  ])('read back the schedule they were filled with: %j', (schedule) => {
    const { mode, hours, draft } = formOfCadence(86_400, schedule);
    expect(cadenceFromForm(mode, hours, draft)).toEqual({ cadence: { schedule } });
  });

  it('read back an interval', () => {
    const { mode, hours, draft } = formOfCadence(5400, null);
    expect(cadenceFromForm(mode, hours, draft)).toEqual({ cadence: { interval_seconds: 5400, schedule: null } });
  });
});
