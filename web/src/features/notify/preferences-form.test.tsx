import { DEFAULT_NOTIFY_PREFERENCES, type TNotifyPreferences } from '@afterword/worker/contracts/notify';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PreferencesForm } from './preferences-form';

function setup(value: TNotifyPreferences = DEFAULT_NOTIFY_PREFERENCES, onSave = vi.fn(async (_p: TNotifyPreferences) => true)) {
  render(<PreferencesForm value={value} timeZone="Europe/Berlin" onSave={onSave} />);
  return onSave;
}

const group = (name: string) => screen.getByRole('group', { name });
const checked = (name: string) =>
  within(group(name))
    .getAllByRole('checkbox')
    .map((c) => [c.closest('.checkbox')?.querySelector('label')?.textContent, (c as HTMLInputElement).checked]);

describe('PreferencesForm', () => {
  it('shows the saved methods, quiet hours and alerts', () => {
    setup({ methods: ['sms'], quiet_hours: { start: '23:00', end: '06:30' }, alerts: { vaults: false, messages: true, canary_events: true } });
    expect(checked('How to reach you')).toEqual([
      ['Email', false],
      ['SMS', true],
      ['Push', false],
    ]);
    expect((screen.getByLabelText('Start') as HTMLInputElement).value).toBe('23:00');
    expect((screen.getByLabelText('End') as HTMLInputElement).value).toBe('06:30');
    expect(checked('Alerts')).toEqual([
      ['Vaults', false],
      ['Messages', true],
      ['Canary events', true],
    ]);
    expect(group('Quiet hours').textContent).toContain('Europe/Berlin');
  });

  it('saves what was changed, methods in a stable order', async () => {
    const onSave = setup();
    fireEvent.click(screen.getByLabelText('Email'));
    fireEvent.click(screen.getByLabelText('SMS'));
    fireEvent.change(screen.getByLabelText('Start'), { target: { value: '21:30' } });
    fireEvent.change(screen.getByLabelText('End'), { target: { value: '08:00' } });
    fireEvent.click(screen.getByLabelText('Canary events'));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toEqual({
      methods: ['sms', 'push'],
      quiet_hours: { start: '21:30', end: '08:00' },
      alerts: { vaults: true, messages: true, canary_events: false },
    });
  });

  it('explains a cleared time instead of sending it', async () => {
    const onSave = setup();
    fireEvent.change(screen.getByLabelText('End'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(await within(group('Quiet hours')).findByText('times must be HH:MM (24-hour)')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it("reads 'Saving…' while saving and ignores a second submit", async () => {
    let done: (v: boolean) => void = () => undefined;
    const onSave = setup(
      undefined,
      vi.fn(
        () =>
          new Promise<boolean>((r) => {
            done = r;
          }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    const pending = await screen.findByRole('button', { name: 'Saving…' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(pending.closest('form')!);
    expect(onSave).toHaveBeenCalledTimes(1);
    done(true);
    expect(await screen.findByRole('button', { name: 'Save preferences' })).toBeTruthy();
  });
});
