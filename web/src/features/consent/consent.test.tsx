import type { TConsent, TConsents } from '@afterword/worker/contracts/legal';
import { CONSENT_STOPS } from '@afterword/worker/contracts/legal';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fails, type FakeProcedure, fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { formatDateTime } from '../../lib/format-time';
import { ConsentCard } from './consent-card';
import { T } from './texts';

const checked = (el: HTMLElement) => (el as HTMLInputElement).checked;
/** What a screen reader reads after the name: the texts of the aria-describedby ids. */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const toasts = () => toastStore.getSnapshot().map((t) => t.message);
const CHANGED = '2026-11-20T10:30:00.000Z';

function consents(over: Partial<Record<TConsent['id'], Partial<TConsent>>> = {}): TConsents {
  return {
    items: (['messages', 'confessions', 'voice', 'video', 'guardian'] as const).map((id) => ({ id, consent: true, updated_at: null, ...over[id] })),
  };
}

function openPage(setConsent: FakeProcedure, initial = consents()) {
  const api = fakeTrpcApi({ 'legal.consents': () => ok(initial), 'legal.setConsent': setConsent });
  renderWithTrpc(<ConsentCard />, api);
  return api;
}

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada reads and changes her data consents', () => {
  it('shows the five kinds as switches, each saying what stops when it is off and when it last changed', async () => {
    openPage(() => ok(null), consents({ voice: { consent: false, updated_at: CHANGED } }));
    const switches = await screen.findAllByRole('switch');
    expect(switches.map((s) => s.closest('.consent-item')!.querySelector('label')!.textContent)).toEqual([
      'Messages',
      'Confessions',
      'Voice',
      'Video',
      'Guardians',
    ]);
    const messages = screen.getByRole('switch', { name: 'Messages' });
    expect(checked(messages)).toBe(true);
    expect(description(messages)).toContain(CONSENT_STOPS.messages);
    expect(description(messages)).toContain(T.neverChanged);
    const voice = screen.getByRole('switch', { name: 'Voice' });
    expect(checked(voice)).toBe(false);
    expect(description(voice)).toContain(`Last changed ${formatDateTime(CHANGED)}`);
    // Voice is built; video is not yet.
    expect(description(voice)).not.toContain(T.notYetBuilt);
    expect(description(screen.getByRole('switch', { name: 'Video' }))).toContain(T.notYetBuilt);
  });

  it('withdraws one kind with legal.setConsent, says so in a toast, and shows the new time', async () => {
    const api = openPage((input) => ok({ ...(input as object), updated_at: CHANGED }));
    fireEvent.click(await screen.findByRole('switch', { name: 'Guardians' }));
    await waitFor(() => expect(toasts()).toContain('Guardians withdrawn'));
    expect(api.callsTo('legal.setConsent')).toEqual([{ id: 'guardian', consent: false }]);
    const guardians = screen.getByRole('switch', { name: 'Guardians' });
    await waitFor(() => expect(checked(guardians)).toBe(false));
    expect(within(guardians.closest('.consent-item') as HTMLElement).getByText(formatDateTime(CHANGED))).toBeTruthy();
  });

  it('asks before a withdrawal that erases (Voice), saying what goes; No keeps everything', async () => {
    const api = openPage((input) => ok({ ...(input as object), updated_at: CHANGED }));
    fireEvent.click(await screen.findByRole('switch', { name: 'Voice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off Voice and delete your voice?' });
    expect(dialog.textContent).toContain('voice profile, every recorded sample and your persona’s answers are deleted');
    expect(api.callsTo('legal.setConsent')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: /cancel|keep|no/i }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('legal.setConsent')).toEqual([]);
    expect(checked(screen.getByRole('switch', { name: 'Voice' }))).toBe(true);

    fireEvent.click(screen.getByRole('switch', { name: 'Voice' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Turn off and delete' }));
    await waitFor(() => expect(api.callsTo('legal.setConsent')).toEqual([{ id: 'voice', consent: false }]));
  });

  it('allows a withdrawn kind again', async () => {
    const api = openPage((input) => ok({ ...(input as object), updated_at: CHANGED }), consents({ messages: { consent: false, updated_at: CHANGED } }));
    fireEvent.click(await screen.findByRole('switch', { name: 'Messages' }));
    await waitFor(() => expect(toasts()).toContain('Messages allowed again'));
    expect(api.callsTo('legal.setConsent')).toEqual([{ id: 'messages', consent: true }]);
    await waitFor(() => expect(checked(screen.getByRole('switch', { name: 'Messages' }))).toBe(true));
  });

  it("shows the server's reason when it refuses, and leaves the switch as it was", async () => {
    const detail = 'Not authenticated';
    openPage(() => fails(401, detail));
    fireEvent.click(await screen.findByRole('switch', { name: 'Video' }));
    await waitFor(() => expect(toasts()).toContain(detail));
    expect(checked(screen.getByRole('switch', { name: 'Video' }))).toBe(true);
  });

  it('says so when the consents cannot be loaded', async () => {
    renderWithTrpc(<ConsentCard />, fakeTrpcApi({ 'legal.consents': () => fails(500, 'Internal error') }));
    expect(await screen.findByText(T.loadFailed)).toBeTruthy();
  });
});
