import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { canaryAllowance, CreateCanaryForm, INTERVAL_HOURS_ERROR } from './create-canary-form';

type OnCreate = Parameters<typeof CreateCanaryForm>[0]['onCreate'];

function setup() {
  const onCreate = vi.fn<OnCreate>(async () => true);
  render(<CreateCanaryForm onCreate={onCreate} pending={false} />);
  const hours = screen.getByLabelText(/^Check-in interval \(hours\)/);
  const submit = (value: string, name?: string) => {
    fireEvent.change(hours, { target: { value } });
    if (name !== undefined) fireEvent.change(screen.getByLabelText('Name (optional)'), { target: { value: name } });
    fireEvent.click(screen.getByRole('button', { name: 'Create canary' }));
  };
  return { onCreate, submit, hours };
}

describe('CreateCanaryForm', () => {
  it.each(['0', '-1', '-0.25', 'abc', '', '   '])('sends nothing for %j and says why', async (value) => {
    const { onCreate, submit, hours } = setup();
    submit(value);
    expect(await screen.findByText(INTERVAL_HOURS_ERROR)).toBeTruthy();
    expect(hours.getAttribute('aria-invalid')).toBe('true');
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('converts 1.5 hours to 5400 whole seconds and sends no name when left empty', async () => {
    const { onCreate, submit } = setup();
    submit('1.5');
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate).toHaveBeenCalledWith({ interval_seconds: 5400 });
  });

  it('rounds to whole seconds and sends a trimmed name', async () => {
    const { onCreate, submit } = setup();
    submit('0.3333', '  Phone  ');
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate).toHaveBeenCalledWith({ interval_seconds: 1200, name: 'Phone' });
  });

  it('explains the server bounds instead of sending an interval under one minute', async () => {
    const { onCreate, submit } = setup();
    submit('0.01'); // 36 s
    expect(await screen.findByText(/at least one minute/)).toBeTruthy();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('defaults to 24 hours', () => {
    const { hours } = setup();
    expect((hours as HTMLInputElement).value).toBe('24');
  });
});

describe('the limits, shown before anything is typed', () => {
  it('states the interval range in the hint', () => {
    setup();
    expect(screen.getByText(/At least one minute, at most 400 days \(9600 hours\)\./)).toBeTruthy();
  });

  it("says the Free plan's one canary up front, and how to get more once it is used", () => {
    expect(canaryAllowance({ plan: 'free', owned: 0 })).toEqual({ text: 'Your Free plan allows 1 canary; you have 0.', full: false });
    expect(canaryAllowance({ plan: 'free', owned: 1 })).toEqual({
      text: 'Your Free plan allows 1 canary and you have 1: delete one or upgrade to add another. Upgrade to Plus for 3 canaries, or to Pro for unlimited canaries.',
      full: true,
    });
    expect(canaryAllowance({ plan: 'pro', owned: 12 })).toBeNull();
  });
});

describe('CreateCanaryForm with a calendar schedule', () => {
  function setupCalendar() {
    const onCreate = vi.fn<OnCreate>(async () => true);
    render(<CreateCanaryForm onCreate={onCreate} pending={false} />);
    return onCreate;
  }
  const create = () => fireEvent.click(screen.getByRole('button', { name: 'Create canary' }));

  it('offers an interval (the default), days of the week, or once a month', () => {
    setupCalendar();
    expect((screen.getByLabelText('Every few hours (an interval)') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByLabelText('On days of the week')).toBeTruthy();
    expect(screen.getByLabelText('Once a month')).toBeTruthy();
  });

  it('sends a weekly schedule with the chosen days in week order, the time, the zone and the reminder in seconds', async () => {
    const onCreate = setupCalendar();
    fireEvent.click(screen.getByLabelText('On days of the week'));
    expect(screen.queryByLabelText(/^Check-in interval/)).toBeNull();
    fireEvent.click(screen.getByLabelText('Thursday'));
    fireEvent.change(screen.getByLabelText(/^Check in by \(time\)/), { target: { value: '09:30' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Europe/Berlin' } });
    fireEvent.change(screen.getByLabelText(/^Remind me before \(hours\)/), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Name (optional)'), { target: { value: 'Weekly' } });
    create();
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate).toHaveBeenCalledWith({
      name: 'Weekly',
      schedule: { kind: 'weekly', days: ['mon', 'thu'], time: '09:30', time_zone: 'Europe/Berlin', grace_seconds: 7200 },
    });
  });

  it('sends "the first Monday" of the month', async () => {
    const onCreate = setupCalendar();
    fireEvent.click(screen.getByLabelText('Once a month'));
    fireEvent.change(screen.getByLabelText(/^Day of the month/), { target: { value: 'first' } });
    fireEvent.change(screen.getByLabelText('Weekday'), { target: { value: 'mon' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'UTC' } });
    create();
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate).toHaveBeenCalledWith({
      schedule: { kind: 'monthly_weekday', week: 'first', weekday: 'mon', time: '10:00', time_zone: 'UTC', grace_seconds: 3600 },
    });
  });

  it('sends nothing without a weekday, and explains a reminder longer than half the time between two days', async () => {
    const onCreate = setupCalendar();
    fireEvent.click(screen.getByLabelText('On days of the week'));
    fireEvent.click(screen.getByLabelText('Monday'));
    create();
    expect(await screen.findByText('Choose at least one day of the week.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Monday'));
    fireEvent.click(screen.getByLabelText('Tuesday'));
    fireEvent.change(screen.getByLabelText(/^Remind me before \(hours\)/), { target: { value: '13' } });
    create();
    expect(await screen.findByText(/at most 12 hours before/)).toBeTruthy();
    expect(onCreate).not.toHaveBeenCalled();
  });
});
