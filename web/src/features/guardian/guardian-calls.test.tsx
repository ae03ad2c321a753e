import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fails, type FakeProcedure, fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { formatDateTime } from '../../lib/format-time';
import { OwnersList } from './owners-list';
import { useGuardianAnswers } from './queries';
import { SettingsCard } from './settings-card';
import { GUARDIANSHIP_ID, guardedOwner, guardian, settings } from './test-fixtures';
import { T } from './texts';
import type { GuardedOwner } from './types';

const toasts = () => toastStore.getSnapshot().map((t) => t.message);

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada saves her ladder settings', () => {
  const threeGuardians = [guardian({ status: 'active' }), guardian({ id: 'g2', status: 'active' }), guardian({ id: 'g3', status: 'invited' })];

  function openSettings(updateSettings: FakeProcedure) {
    const api = fakeTrpcApi({ 'guardian.settings': () => ok(settings()), 'guardian.updateSettings': updateSettings, 'guardian.ladder': () => ok(null) });
    renderWithTrpc(<SettingsCard guardians={threeGuardians} />, api);
    return api;
  }

  it('offers a quorum of 1 to 3 of her 3 guardians and a veto window from 24 hours to 30 days', async () => {
    openSettings(() => ok(settings()));
    const quorum = await screen.findByLabelText('Reports needed');
    expect([...(quorum as HTMLSelectElement).options].map((o) => o.text)).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    const veto = screen.getByLabelText('Veto window') as HTMLSelectElement;
    expect(veto.value).toBe('72');
    expect(veto.options[0]!.text).toBe('1 day (24 hours)');
    expect(veto.options[veto.options.length - 1]!.text).toBe('30 days');
  });

  it('sends quorum and veto window to guardian.updateSettings and says they were saved', async () => {
    const api = openSettings((input) => ok(input));
    fireEvent.change(await screen.findByLabelText('Reports needed'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Veto window'), { target: { value: '168' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(toasts()).toContain(T.settingsSaved));
    expect(api.callsTo('guardian.updateSettings')).toEqual([{ quorum: 2, veto_window_hours: 168 }]);
    expect((screen.getByLabelText('Reports needed') as HTMLSelectElement).value).toBe('2');
  });

  it("shows the server's reason when it refuses, and keeps her choice", async () => {
    const detail = 'quorum must be at most your number of invited or active guardians (3)';
    openSettings(() => fails(422, detail));
    fireEvent.change(await screen.findByLabelText('Veto window'), { target: { value: '720' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(toasts()).toContain(detail));
    expect(toasts()).not.toContain(T.settingsSaved);
    expect((screen.getByLabelText('Veto window') as HTMLSelectElement).value).toBe('720');
  });
});

/** Sam's "People who chose you", with the real answer hooks. */
function SamsPage({ owners }: { owners: GuardedOwner[] }) {
  return <OwnersList owners={owners} actions={useGuardianAnswers()} />;
}

const answered = (recorded: string, over: Record<string, unknown> = {}) => ok({ recorded, stage: 'missed', report: null, hold_until: null, ...over });

function openSamsPage(owner: GuardedOwner, answer: FakeProcedure = (input) => answered('guardian_fine', { input })) {
  const api = fakeTrpcApi({ 'guardian.answer': answer, 'guardian.resign': () => ok({ id: GUARDIANSHIP_ID, status: 'resigned', owner_name: 'Ada' }) });
  renderWithTrpc(<SamsPage owners={[owner]} />, api);
  return api;
}

describe("Sam, Ada's guardian, answers 'Have you heard from Ada?'", () => {
  it('"They are fine" calls guardian.answer with his guardianship and answer fine', async () => {
    const api = openSamsPage(guardedOwner({ missed: true, stage: 'missed' }));
    fireEvent.click(screen.getByRole('button', { name: 'They are fine' }));
    await waitFor(() => expect(toasts()).toContain(T.fineRecorded));
    expect(api.callsTo('guardian.answer')).toEqual([{ id: GUARDIANSHIP_ID, answer: 'fine' }]);
  });

  it('"Hold N days" sends the days he typed and says until when', async () => {
    const until = '2026-05-24T10:00:00.000Z';
    const api = openSamsPage(guardedOwner({ missed: true, stage: 'missed' }), () => answered('hold', { hold_until: until }));
    fireEvent.change(screen.getByLabelText('Days to hold'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Hold 10 days' }));
    await waitFor(() => expect(toasts()).toContain(T.holdRecorded(formatDateTime(until))));
    expect(api.callsTo('guardian.answer')).toEqual([{ id: GUARDIANSHIP_ID, answer: 'hold', days: 10 }]);
  });

  it('a hold outside 1 to 30 days is refused before anything is sent', async () => {
    const api = openSamsPage(guardedOwner({ missed: true, stage: 'missed' }));
    fireEvent.change(screen.getByLabelText('Days to hold'), { target: { value: '31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Hold 31 days' }));
    expect(await screen.findByText(T.holdDaysInvalid(30))).toBeTruthy();
    expect(api.callsTo('guardian.answer')).toEqual([]);
  });

  it('"Report death" asks first, says what will happen, and reports only after the confirm', async () => {
    const api = openSamsPage(guardedOwner({ missed: true, stage: 'missed' }), () => answered('death_reported', { stage: 'reported' }));
    fireEvent.click(screen.getByRole('button', { name: 'Report death' }));
    const dialog = await screen.findByRole('dialog', { name: T.reportTitle('Ada') });
    expect(dialog.textContent).toContain('any check-in by Ada refutes it');
    expect(api.callsTo('guardian.answer')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: T.reportConfirm }));
    await waitFor(() => expect(toasts()).toContain(T.deathReported));
    expect(api.callsTo('guardian.answer')).toEqual([{ id: GUARDIANSHIP_ID, answer: 'report_death' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('cancelling the report sends nothing', async () => {
    const api = openSamsPage(guardedOwner({ missed: true, stage: 'missed' }));
    fireEvent.click(screen.getByRole('button', { name: 'Report death' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('guardian.answer')).toEqual([]);
  });

  it('cannot report a death before Ada has missed a check-in, and is told why', () => {
    openSamsPage(guardedOwner({ missed: false }));
    expect((screen.getByRole('button', { name: 'Report death' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('You can report a death only after Ada has missed a check-in.')).toBeTruthy();
  });

  it("shows the server's reason when an answer is refused, and keeps the dialog open", async () => {
    const detail = 'Ada has not missed a check-in';
    openSamsPage(guardedOwner({ missed: true, stage: 'missed' }), () => fails(409, detail));
    fireEvent.click(screen.getByRole('button', { name: 'Report death' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: T.reportConfirm }));
    await waitFor(() => expect(toasts()).toContain(detail));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('"Resign" asks first, then calls guardian.resign with his guardianship', async () => {
    const api = openSamsPage(guardedOwner());
    fireEvent.click(screen.getByRole('button', { name: "Resign as Ada's guardian" }));
    const dialog = await screen.findByRole('dialog', { name: T.resignTitle('Ada') });
    expect(api.callsTo('guardian.resign')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: T.resignConfirm }));
    await waitFor(() => expect(toasts()).toContain(T.resigned));
    expect(api.callsTo('guardian.resign')).toEqual([{ id: GUARDIANSHIP_ID }]);
  });

  it('shows his earlier answers, the hold in force and the open report', () => {
    openSamsPage(
      guardedOwner({
        missed: true,
        stage: 'veto_window',
        hold_until: '2026-05-20T09:00:00Z',
        report: {
          id: 'r1',
          status: 'open',
          sandbox: false,
          opened_at: '2026-05-11T09:00:00Z',
          votes: 2,
          quorum: 2,
          window_opened_at: '2026-05-11T09:00:00Z',
          window_ends_at: '2026-05-14T09:00:00Z',
          halfway_at: '2026-05-12T21:00:00Z',
          closed_at: null,
        },
        my_answers: [
          { at: '2026-05-12T09:00:00Z', kind: 'hold' },
          { at: '2026-05-11T09:00:00Z', kind: 'death_reported' },
        ],
      }),
    );
    const [hold, report] = within(screen.getByRole('list', { name: 'Your answers' })).getAllByRole('listitem');
    expect(hold!.textContent).toContain('You asked to hold');
    expect(hold!.textContent).toContain(formatDateTime('2026-05-12T09:00:00Z'));
    expect(report!.textContent).toContain('You reported their death');
    const person = screen.getByRole('listitem', { name: 'Ada' });
    expect(person.textContent).toContain(`On hold until${formatDateTime('2026-05-20T09:00:00Z')}`);
    expect(person.textContent).toContain('2 of 2 needed');
    expect(person.textContent).toContain(`Veto window ends${formatDateTime('2026-05-14T09:00:00Z')}`);
    expect(person.textContent).toContain('Veto window open');
  });

  it('once the death is confirmed there is nothing left to answer', () => {
    openSamsPage(guardedOwner({ stage: 'confirmed', missed: true, death_confirmed_at: '2026-05-14T09:00:00Z' }));
    expect(screen.queryByRole('button', { name: 'They are fine' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Report death' })).toBeNull();
  });
});
