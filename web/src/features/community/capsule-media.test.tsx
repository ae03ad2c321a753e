import type { TMyCapsule } from '@afterword/worker/contracts/capsules';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { HttpError } from '../../lib/api-error';
import { CapsuleItems } from './capsule-items';
import { renderWithQuery } from '../../test-utils/query-client';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { MyCapsules } from './my-capsules';

/** MyCapsules links each title to its page: it renders inside the router. */
const renderMine = async (ui: ReactNode) => {
  renderWithRouter(() => ui);
  await screen.findByRole('list', { name: 'My capsules' });
};

const sealed = (over: Partial<TMyCapsule> = {}): TMyCapsule => ({
  id: 'c1',
  title: 'For my granddaughter',
  theme: 'Love',
  user_email: 'ada@example.com',
  is_anonymous: false,
  released_at: '2099-01-01T00:00:00.000Z',
  content: [{ type: 'text', data: 'Read this when you are twenty.' }],
  status: 'scheduled',
  memorial_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

const withAudio = sealed({
  content: [
    { type: 'text', data: 'Read this when you are twenty.' },
    { type: 'audio', data: '/api/capsule/media/a1', captions: '/api/capsule/media/a1/captions' },
  ],
});

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

const noop = async () => true;

describe('Ada adds her voice to a sealed capsule', () => {
  it('adds an audio file with WebVTT captions: the upload gets the file, the kind and the captions text', async () => {
    const upload = vi.fn(async () => withAudio);
    const added = vi.fn();
    await renderMine(<MyCapsules capsules={[sealed()]} onDelete={noop} onPublish={noop} onMediaAdded={added} onRemoveMedia={noop} upload={upload} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add audio or video' }));
    const form = screen.getByRole('group', { name: 'Add audio or video to “For my granddaughter”' });
    const add = within(form).getByRole('button', { name: 'Add file' });
    expect((add as HTMLButtonElement).disabled).toBe(true);
    const take = new File(['RIFF'], 'take.wav', { type: 'audio/wav' });
    fireEvent.change(within(form).getByLabelText('File'), { target: { files: [take] } });
    fireEvent.change(within(form).getByLabelText('Captions (optional, WebVTT .vtt)'), {
      target: { files: [new File(['WEBVTT\n\n00:00.000 --> 00:01.000\nHello'], 'take.vtt', { type: 'text/vtt' })] },
    });
    fireEvent.click(add);
    await waitFor(() => expect(added).toHaveBeenCalled());
    expect(upload).toHaveBeenCalledWith('c1', take, 'audio', 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello');
    expect(toastStore.getSnapshot().map((t) => t.message)).toContain('Recording added');
  });

  it('shows the server’s reason when it refuses the file', async () => {
    const upload = vi.fn(async () => {
      throw new HttpError(415, { detail: 'Video items can be WebM or MP4 video' });
    });
    await renderMine(<MyCapsules capsules={[sealed()]} onDelete={noop} onPublish={noop} onMediaAdded={vi.fn()} onRemoveMedia={noop} upload={upload} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add audio or video' }));
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'video' } });
    fireEvent.change(screen.getByLabelText('File'), { target: { files: [new File(['x'], 'clip.avi')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Add file' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Video items can be WebM or MP4 video');
  });

  it('lists the sealed capsule’s files and removes one by its item id', async () => {
    const remove = vi.fn(async () => true);
    await renderMine(<MyCapsules capsules={[withAudio]} onDelete={noop} onPublish={noop} onMediaAdded={vi.fn()} onRemoveMedia={remove} />);
    const list = screen.getByRole('list', { name: 'Audio and video of “For my granddaughter”' });
    fireEvent.click(within(list).getByRole('button', { name: 'Remove Recording 1 (with captions)' }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith('c1', 'a1'));
  });

  it('offers no file changes once the capsule is open', async () => {
    await renderMine(<MyCapsules capsules={[sealed({ status: 'released' })]} onDelete={noop} onPublish={noop} onMediaAdded={vi.fn()} onRemoveMedia={noop} />);
    expect(screen.queryByRole('button', { name: 'Add audio or video' })).toBeNull();
  });
});

describe('a reader opens a capsule with a recording', () => {
  it('plays an open capsule’s audio from its path, with the captions as a captions track', () => {
    const { container } = renderWithQuery(<CapsuleItems content={withAudio.content} open />);
    expect(screen.getByText('Read this when you are twenty.')).toBeTruthy();
    const audio = container.querySelector('audio')!;
    expect(audio.getAttribute('src')).toBe('/api/capsule/media/a1');
    expect(audio.getAttribute('aria-label')).toBe('Recording 1');
    const track = audio.querySelector('track')!;
    expect([track.getAttribute('kind'), track.getAttribute('src')]).toEqual(['captions', '/api/capsule/media/a1/captions']);
  });

  it('reads a sealed capsule’s audio with the author’s session into an object URL', async () => {
    const fetchMock = vi.fn(async (_url: string) => new Response(new Blob(['RIFF']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const made = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:local-1');
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const { container } = renderWithQuery(<CapsuleItems content={withAudio.content} open={false} />);
    await waitFor(() => expect(container.querySelector('audio')?.getAttribute('src')).toBe('blob:local-1'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(expect.arrayContaining(['/api/capsule/media/a1', '/api/capsule/media/a1/captions']));
    made.mockRestore();
    revoked.mockRestore();
  });
});
