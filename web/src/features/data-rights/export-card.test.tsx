import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { setToken } from '../../lib/session';
import { ExportCard } from './export-card';
import { T } from './texts';

const toasts = () => toastStore.getSnapshot().map((t) => t.message);

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Ada downloads her data', () => {
  it('fetches the archive with her session and hands it to the browser under the server’s file name', async () => {
    setToken('ada-session');
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    const fetch = vi.fn(
      async () =>
        new Response(zip, { headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="afterword-export-2026-11-24.zip"' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const made = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:archive');
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('afterword-export-2026-11-24.zip');
    });
    render(<ExportCard />);
    fireEvent.click(screen.getByRole('button', { name: T.exportButton }));
    await waitFor(() => expect(toasts()).toContain(T.exported));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/legal/export');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer ada-session');
    expect((made.mock.calls[0]![0] as Blob).size).toBe(zip.byteLength);
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('says so when the archive cannot be made', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ detail: 'Not authenticated' }), { status: 401, headers: { 'content-type': 'application/json' } })),
    );
    render(<ExportCard />);
    fireEvent.click(screen.getByRole('button', { name: T.exportButton }));
    await waitFor(() => expect(toasts()).toContain('Not authenticated'));
  });
});
