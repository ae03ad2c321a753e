import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/session';
import { createTestQueryClient, renderWithQuery } from '../../test-utils/query-client';
import { AudioPlayer } from './audio-player';

const recording = () => new Response(new Blob(['webm'], { type: 'audio/webm' }), { status: 200 });

function objectUrls() {
  let n = 0;
  const created = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:recording-${++n}`);
  const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return { created, revoked };
}

const player = () => screen.findByLabelText('Voice recording', { selector: 'audio' });

describe('AudioPlayer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the recording through the query cache with the bearer header, and revokes its URL when it leaves', async () => {
    setToken('tok-audio');
    const fetchMock = vi.fn(async () => recording());
    vi.stubGlobal('fetch', fetchMock);
    const { created, revoked } = objectUrls();
    const { queryClient, unmount } = renderWithQuery(<AudioPlayer messageId="m-7" />);

    expect(screen.getByLabelText('Loading the recording')).toBeTruthy();
    expect((await player()).getAttribute('src')).toBe('blob:recording-1');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/message/m-7/audio');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok-audio');
    expect(await (queryClient.getQueryData(['message-audio', 'm-7']) as Blob).text()).toBe('webm');
    expect(revoked).not.toHaveBeenCalled();

    unmount();
    expect(revoked).toHaveBeenCalledWith('blob:recording-1');
    expect(created).toHaveBeenCalledTimes(1);
  });

  it('plays a cached recording again without downloading it twice, under a fresh URL', async () => {
    const fetchMock = vi.fn(async () => recording());
    vi.stubGlobal('fetch', fetchMock);
    objectUrls();
    const queryClient = createTestQueryClient();
    const first = renderWithQuery(<AudioPlayer messageId="m-7" />, queryClient);
    await player();
    first.unmount();

    renderWithQuery(<AudioPlayer messageId="m-7" />, queryClient);
    expect((await player()).getAttribute('src')).toBe('blob:recording-2');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('revokes the previous URL when the message changes', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => recording()),
    );
    const { revoked } = objectUrls();
    const { rerender } = renderWithQuery(<AudioPlayer messageId="m-7" />);
    await player();
    rerender(<AudioPlayer messageId="m-8" />);
    await waitFor(async () => expect((await player()).getAttribute('src')).toBe('blob:recording-2'));
    expect(revoked).toHaveBeenCalledWith('blob:recording-1');
    expect(revoked).not.toHaveBeenCalledWith('blob:recording-2');
  });

  it("says the recording could not be loaded, with the server's detail and a Retry, when the server refuses it", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ detail: 'Message not found' }), { status: 404 })),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { created } = objectUrls();
    renderWithQuery(<AudioPlayer messageId="m-7" />);
    expect(await screen.findByText('The recording could not be loaded.')).toBeTruthy();
    expect(screen.getByText('Message not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(created).not.toHaveBeenCalled();
  });
});
