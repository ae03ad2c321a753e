import type { VoicePromptView } from '@afterword/worker/contracts/voice';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { BeyondCard } from './beyond-card';
import { T } from './texts';

const toasts = () => toastStore.getSnapshot().map((t) => t.message);
const saved = (over: Partial<VoicePromptView> = {}): VoicePromptView => ({
  id: 'p1',
  prompt: 'What should I do when I miss you?',
  response_text: 'Go to the sea.',
  has_audio: true,
  content_type: 'audio/webm',
  duration_ms: 4200,
  size: 30_000,
  locked: true,
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada leaves a Message from the Beyond', () => {
  it('lists her answers with whether they are locked and the measured length of a recording, and deletes one', async () => {
    const api = fakeTrpcApi({ 'voice.prompts': () => ok([saved()]), 'voice.deletePrompt': () => ok({ ok: true }) });
    renderWithTrpc(<BeyondCard create={vi.fn()} />, api);
    const item = await screen.findByRole('listitem', { name: 'What should I do when I miss you?' });
    expect(item.textContent).toContain('Go to the sea.');
    expect(item.textContent).toContain(T.beyondLockedBadge);
    expect(item.textContent).toContain('Recorded answer, 4.2 s');
    fireEvent.click(within(item).getByRole('button', { name: T.deletePrompt('What should I do when I miss you?') }));
    await waitFor(() => expect(toasts()).toContain(T.beyondDeleted));
    expect(api.callsTo('voice.deletePrompt')).toEqual([{ id: 'p1' }]);
  });

  it('asks for a question and an answer, then saves a written one, locked by default', async () => {
    const create = vi.fn(async () => saved());
    renderWithTrpc(<BeyondCard create={create} />, fakeTrpcApi({ 'voice.prompts': () => ok([]) }));
    await screen.findByText(T.beyondEmpty);
    fireEvent.click(screen.getByRole('button', { name: T.beyondSave }));
    expect(await screen.findByText(T.beyondNeedsPrompt)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(T.beyondPrompt), { target: { value: 'Happy birthday?' } });
    fireEvent.click(screen.getByRole('button', { name: T.beyondSave }));
    expect(await screen.findByText(T.beyondNeedsAnswer)).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(T.beyondResponse), { target: { value: 'Eat the whole cake.' } });
    fireEvent.click(screen.getByRole('button', { name: T.beyondSave }));
    await waitFor(() => expect(toasts()).toContain(T.beyondSaved));
    expect(create).toHaveBeenCalledWith('Happy birthday?', 'Eat the whole cake.', null, true);
  });
});
