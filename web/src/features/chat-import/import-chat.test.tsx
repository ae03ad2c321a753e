import type { TChatImport } from '@afterword/worker/contracts/chat-import';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { HttpError } from '../../lib/api-error';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { ImportChat } from './import-chat';
import { T } from './texts';

const job = (over: Partial<TChatImport> = {}): TChatImport => ({
  job_id: 'job-1',
  status: 'queued',
  format: 'plain',
  file_name: 'chat.json',
  size: 300,
  senders: null,
  self_sender: null,
  message_count: null,
  line_count: null,
  error: null,
  created_at: '2026-11-20T10:00:00.000Z',
  completed_at: null,
  ...over,
});

const jsonFile = () => new File(['[]'], 'chat.json', { type: 'application/json' });

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada imports a chat history on the Import Chat page', () => {
  it('cannot upload before choosing a file, and a file that is not JSON is refused without a request', async () => {
    const upload = vi.fn();
    renderWithTrpc(<ImportChat upload={upload} />, fakeTrpcApi({ 'chatImport.list': () => ok([]) }));
    await screen.findByText(T.listEmpty);
    const button = screen.getByRole('button', { name: T.upload });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(T.fileField), { target: { files: [new File(['a,b'], 'chat.csv', { type: 'text/csv' })] } });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    expect(await screen.findByText(T.jsonOnly)).toBeTruthy();
    expect(upload).not.toHaveBeenCalled();
  });

  it('shows uploading, then queued: {job_id}, then polls the job until it asks which sender she is; her pick is sent', async () => {
    let release: (value: TChatImport) => void = () => {};
    const upload = vi.fn(() => new Promise<TChatImport>((resolve) => (release = resolve)));
    let reads = 0;
    const api = fakeTrpcApi({
      'chatImport.list': () => ok([]),
      'chatImport.get': () => {
        reads += 1;
        return ok(
          reads < 2
            ? job({ status: 'processing' })
            : job({
                status: 'needs_sender',
                message_count: 3,
                senders: [
                  { name: 'Me', count: 2 },
                  { name: 'Mum', count: 1 },
                ],
              }),
        );
      },
      'chatImport.chooseSender': () => ok(job({ status: 'queued', self_sender: 'Me' })),
    });
    renderWithTrpc(<ImportChat upload={upload} />, api);
    fireEvent.change(screen.getByLabelText(T.fileField), { target: { files: [jsonFile()] } });
    fireEvent.change(screen.getByLabelText(T.senderField), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: T.upload }));
    expect((await screen.findByRole('status')).textContent).toBe('uploading');
    release(job());
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('queued: job-1'));
    expect(upload).toHaveBeenCalledWith(expect.any(File), '  ');

    const group = await screen.findByRole('group', { name: T.whichIsYou }, { timeout: 4000 });
    fireEvent.click(within(group).getByRole('button', { name: T.thisIsMe }));
    expect(await within(group).findByText(T.pickFirst)).toBeTruthy();
    fireEvent.click(within(group).getByRole('radio', { name: /^Me/ }));
    fireEvent.click(within(group).getByRole('button', { name: T.thisIsMe }));
    await waitFor(() => expect(api.callsTo('chatImport.chooseSender')).toEqual([{ id: 'job-1', sender: 'Me' }]));
  });

  it('shows error with the server’s detail when the upload is refused', async () => {
    const upload = vi.fn(async () => {
      throw new HttpError(422, { detail: [{ loc: ['body', 'file'], msg: 'This file is not a chat export we can read.', type: 'chat_format' }] });
    });
    renderWithTrpc(<ImportChat upload={upload} />, fakeTrpcApi({ 'chatImport.list': () => ok([]) }));
    fireEvent.change(screen.getByLabelText(T.fileField), { target: { files: [jsonFile()] } });
    fireEvent.click(screen.getByRole('button', { name: T.upload }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('error'));
    expect(screen.getByRole('alert').textContent).toContain('This file is not a chat export we can read.');
  });

  it('lists her imports with what each kept, and deletes one after confirming', async () => {
    const api = fakeTrpcApi({
      'chatImport.list': () => ok([job({ status: 'complete', format: 'telegram', file_name: 'result.json', line_count: 12, message_count: 40 })]),
      'chatImport.delete': () => ok({ ok: true }),
    });
    renderWithTrpc(<ImportChat upload={vi.fn()} />, api);
    const list = await screen.findByRole('list', { name: T.listTitle });
    expect(list.textContent).toContain('Imported');
    expect(list.textContent).toContain('Telegram');
    expect(list.textContent).toContain(T.kept(12, 40));
    fireEvent.click(within(list).getByRole('button', { name: T.deleteLabel('result.json') }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo('chatImport.delete')).toEqual([{ id: 'job-1' }]));
  });
});
