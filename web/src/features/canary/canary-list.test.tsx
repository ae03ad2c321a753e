import type { TCanary } from '@afterword/worker/contracts/canary';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { CanaryList, DELETE_CONFIRM_TEXT } from './canary-list';

const NOW = Date.parse('2026-05-14T09:00:00Z');

function canary(overrides: Partial<TCanary> = {}): TCanary {
  return {
    id: 'c1',
    name: '',
    interval_seconds: 86_400,
    active: true,
    token: 'tok-abc',
    last_check_in: '2026-05-14T08:00:00Z',
    deadline: '2026-05-15T08:00:00Z',
    status: 'active',
    misses: 0,
    created_at: '2026-05-01T08:00:00Z',
    schedule: null,
    schedule_words: null,
    paused_until: null,
    ...overrides,
  };
}

type OnDelete = Parameters<typeof CanaryList>[0]['onDelete'];

function renderList(canaries: TCanary[], onDelete = vi.fn<OnDelete>(async () => true)) {
  render(<CanaryList canaries={canaries} nowMs={NOW} origin="https://afterword.test" onDelete={onDelete} deletePending={false} />);
  return onDelete;
}

describe('CanaryList', () => {
  afterEach(() => toastStore.reset());

  it("shows 'Unnamed' for an empty or blank name, and the name otherwise", () => {
    renderList([canary({ id: 'a', name: '' }), canary({ id: 'b', name: '   ' }), canary({ id: 'c', name: 'Phone' })]);
    const names = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(names).toEqual(['Unnamed', 'Unnamed', 'Phone']);
  });

  it('shows interval, live health, the ping URL and a curl -X POST example', () => {
    renderList([canary({ last_check_in: '2026-05-13T13:30:00Z' })]); // 19.5 of 24 hours gone: under 20 % left
    const item = screen.getByRole('listitem');
    expect(item.textContent).toContain('every 24 hours');
    expect(within(item).getByText('Grace')).toBeTruthy();
    expect(item.textContent).toContain('POST https://afterword.test/api/ping/tok-abc');
    expect(item.textContent).toContain('curl -X POST https://afterword.test/api/ping/tok-abc');
  });

  it('shows a calendar schedule in words, and a paused canary with the end of its pause and a way to end it', () => {
    const pauses = { pause: vi.fn(async () => true), resume: vi.fn(async () => true), pending: false };
    render(
      <CanaryList
        canaries={[
          canary({
            schedule: { kind: 'weekly', days: ['mon'], time: '10:00', time_zone: 'Europe/Berlin', grace_seconds: 3600 },
            schedule_words: 'Every Monday by 10:00 (Europe/Berlin), reminded 1 hour before',
            deadline: '2026-06-15T08:00:00Z',
            paused_until: '2026-06-01T00:00:00Z',
          }),
        ]}
        nowMs={NOW}
        origin="https://afterword.test"
        onDelete={vi.fn()}
        deletePending={false}
        pauses={pauses}
      />,
    );
    const item = screen.getByRole('listitem');
    expect(item.textContent).toContain('Every Monday by 10:00 (Europe/Berlin), reminded 1 hour before');
    expect(item.textContent).toContain('Paused for a vacation until');
    fireEvent.click(within(item).getByRole('button', { name: /End the pause now/ }));
    expect(pauses.resume).toHaveBeenCalledWith('c1');
  });

  it('asks exactly "Delete this canary?" and deletes only after confirming', async () => {
    const onDelete = renderList([canary({ id: 'c9', name: 'Phone' })]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete canary Phone' }));
    const dialog = await screen.findByRole('dialog', { name: DELETE_CONFIRM_TEXT });
    expect(DELETE_CONFIRM_TEXT).toBe('Delete this canary?');
    expect(dialog.textContent).toContain('Delete this canary?');
    expect(onDelete).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete canary' }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith('c9'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends nothing when the confirm is cancelled', async () => {
    const onDelete = renderList([canary()]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete canary Unnamed' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('copies the token and says so', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderList([canary()]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy token for Unnamed' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('tok-abc'));
    expect(toastStore.getSnapshot().map((t) => t.message)).toContain('Token copied');
    vi.unstubAllGlobals();
  });

  it('opens Edit schedule in a dialog pre-filled with the canary, and closes it once saved', async () => {
    const save = vi.fn(async () => ({ ok: true }) as const);
    render(
      <CanaryList
        canaries={[canary({ name: 'Phone', interval_seconds: 7200 })]}
        nowMs={NOW}
        origin="https://afterword.test"
        onDelete={vi.fn()}
        deletePending={false}
        edits={{ save, pending: false }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit schedule for Phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the schedule of “Phone”' });
    expect((within(dialog).getByLabelText(/^Check-in interval \(hours\)/) as HTMLInputElement).value).toBe('2');
    fireEvent.change(within(dialog).getByLabelText(/^Check-in interval \(hours\)/), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(save).toHaveBeenCalledWith('c1', { interval_seconds: 10_800, schedule: null }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
