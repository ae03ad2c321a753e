import type { VoiceSampleView, VoiceStatus } from '@afterword/worker/contracts/voice';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { HttpError } from '../../lib/api-error';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { T } from './texts';
import { VoiceTrainer } from './voice-trainer';

const toasts = () => toastStore.getSnapshot().map((t) => t.message);

const sample = (over: Partial<VoiceSampleView> = {}): VoiceSampleView => ({
  id: 's1',
  label: 'Reading a poem',
  content_type: 'audio/webm',
  codec: 'opus',
  size: 40_000,
  duration_ms: 3713,
  analysed_seconds: null,
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

const status = (over: Partial<VoiceStatus> = {}): VoiceStatus => ({
  status: 'not_started',
  seconds_collected: 3.7,
  seconds_required: 30,
  engine: 'local',
  error: null,
  profile: null,
  samples: [sample()],
  ...over,
});

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada leaves her voice on the Voice Trainer', () => {
  it('sees the engine, that it is a profile and not a clone, her samples with the measured lengths, and how much is missing', async () => {
    renderWithTrpc(<VoiceTrainer upload={vi.fn()} />, fakeTrpcApi({ 'voice.status': () => ok(status()) }));
    const list = await screen.findByRole('list', { name: T.samplesTitle });
    expect(within(list).getByRole('listitem', { name: 'Reading a poem' }).textContent).toContain('3.7 s');
    expect(screen.getByText(T.notAClone)).toBeTruthy();
    expect(screen.getByText(/Local \(offline speech synthesiser/)).toBeTruthy();
    const start = screen.getByRole('button', { name: 'Need 27s more' });
    expect((start as HTMLButtonElement).disabled).toBe(true);
  });

  it('with the ElevenLabs engine, is told plainly that her samples go to ElevenLabs to make a neural clone, and when it is deleted', async () => {
    renderWithTrpc(<VoiceTrainer upload={vi.fn()} />, fakeTrpcApi({ 'voice.status': () => ok(status({ engine: 'elevenlabs' })) }));
    expect(await screen.findByText(T.clone)).toBeTruthy();
    expect(screen.queryByText(T.notAClone)).toBeNull();
    expect(screen.getByText(/ElevenLabs \(your voice cloned from your samples/)).toBeTruthy();
  });

  it('uploads several files at once, only after the consent is ticked, and says which one the server refused', async () => {
    const api = fakeTrpcApi({ 'voice.status': () => ok(status({ samples: [] })) });
    const upload = vi.fn(async (_file: Blob, name: string, _label: string) => {
      if (name === 'song.mp3') throw new HttpError(415, { detail: 'Only WebM, Ogg (Opus or Vorbis) and WAV audio can be used' });
      return sample({ id: name, label: name });
    });
    renderWithTrpc(<VoiceTrainer upload={upload} />, api);
    await screen.findByText(T.samplesEmpty);
    const input = screen.getByLabelText(T.filesField);
    const files = [new File(['a'], 'one.wav', { type: 'audio/wav' }), new File(['b'], 'two.ogg'), new File(['c'], 'song.mp3')];
    fireEvent.change(input, { target: { files } });
    fireEvent.change(screen.getByLabelText(T.labelField), { target: { value: 'Hello' } });

    fireEvent.click(screen.getByRole('button', { name: T.upload }));
    expect(await screen.findByText(T.needConsent)).toBeTruthy();
    expect(upload).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('checkbox', { name: T.consentLabel }));
    fireEvent.click(screen.getByRole('button', { name: T.upload }));
    await waitFor(() => expect(toasts()).toContain('2 samples added'));
    expect(upload.mock.calls.map(([, name, label]) => [name, label])).toEqual([
      ['one.wav', 'Hello'],
      ['two.ogg', 'Hello'],
      ['song.mp3', 'Hello'],
    ]);
    expect(toasts()).toContain('song.mp3: Only WebM, Ogg (Opus or Vorbis) and WAV audio can be used');
    // The list is read again from the server, which measured the new samples.
    await waitFor(() => expect(api.callsTo('voice.status').length).toBeGreaterThan(1));
  });

  it('deletes a sample with voice.deleteSample', async () => {
    const api = fakeTrpcApi({ 'voice.status': () => ok(status()), 'voice.deleteSample': () => ok({ ok: true }) });
    renderWithTrpc(<VoiceTrainer upload={vi.fn()} />, api);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Reading a poem' }));
    await waitFor(() => expect(toasts()).toContain(T.deleted));
    expect(api.callsTo('voice.deleteSample')).toEqual([{ id: 's1' }]);
  });

  it('starts training with 30 s, polls every second while processing, and says when it is complete', async () => {
    let current = status({ seconds_collected: 34.7 });
    const api = fakeTrpcApi({
      'voice.status': () => ok(current),
      'voice.train': () => {
        current = status({ seconds_collected: 34.7, status: 'processing' });
        return ok(current);
      },
    });
    renderWithTrpc(<VoiceTrainer upload={vi.fn()} />, api);
    fireEvent.click(await screen.findByRole('button', { name: T.start }));
    await waitFor(() => expect(toasts()).toContain(T.inProgress));
    expect(screen.getByTestId('voice-status').textContent).toBe('Processing');
    expect((screen.getByRole('button', { name: T.start }) as HTMLButtonElement).disabled).toBe(true);

    const polled = api.callsTo('voice.status').length;
    current = status({
      seconds_collected: 34.7,
      status: 'complete',
      profile: {
        pitch_hz: 148.2,
        syllables_per_second: 4.1,
        seconds_used: 34.7,
        seconds_analysed: 31,
        sample_count: 2,
        completed_at: '2026-11-20T10:01:00.000Z',
      },
    });
    await waitFor(() => expect(toasts()).toContain(T.complete), { timeout: 3000 });
    expect(api.callsTo('voice.status').length).toBeGreaterThan(polled);
    // The loading toast turned into the success one.
    expect(toasts()).not.toContain(T.inProgress);
    expect(screen.getByText('148.2 Hz')).toBeTruthy();
    expect(screen.getByText('Measured on 31 s of 34.7 s from 2 samples.')).toBeTruthy();
  });

  it('shows a failed training with its reason and lets it start again', async () => {
    renderWithTrpc(
      <VoiceTrainer upload={vi.fn()} />,
      fakeTrpcApi({
        'voice.status': () => ok(status({ seconds_collected: 31, status: 'failed', error: 'The samples could not be read; start the training again' })),
      }),
    );
    expect(await screen.findByText('The samples could not be read; start the training again')).toBeTruthy();
    expect((screen.getByRole('button', { name: T.start }) as HTMLButtonElement).disabled).toBe(false);
  });
});
