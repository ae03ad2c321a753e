import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { AttemptsLog } from './attempts-log';
import { T } from './texts';
import { attempt, createdWebhook, webhook, WEBHOOK_SECRET } from './test-fixtures';
import type { CreatedWebhook, CreateWebhookInput, WebhookEndpoint } from './types';
import { WebhooksSection } from './webhooks-section';

type OnCreate = (input: CreateWebhookInput) => Promise<CreatedWebhook | null>;

function setup({
  webhooks = [] as WebhookEndpoint[],
  onCreate = vi.fn<OnCreate>(async () => createdWebhook()),
  onDelete = vi.fn(async (_id: string) => true),
  onTest = vi.fn(async (_id: string) => true),
  testingId = null as string | null,
} = {}) {
  const view = render(
    <WebhooksSection
      webhooks={webhooks}
      loading={false}
      loadFailed={null}
      onCreate={onCreate}
      createPending={false}
      onDelete={onDelete}
      deletePending={false}
      onTest={onTest}
      testingId={testingId}
      renderAttempts={(w) => <p>attempts of {w.id}</p>}
    />,
  );
  return { onCreate, onDelete, onTest, view };
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create webhook' }));

describe('CreateWebhookForm and the secret shown once', () => {
  afterEach(() => {
    toastStore.reset();
    vi.unstubAllGlobals();
  });

  it('sends URL, event and retry, without a secret when none was typed', async () => {
    const { onCreate } = setup();
    fireEvent.change(screen.getByLabelText(/^Endpoint URL/), { target: { value: ' http://127.0.0.1:9999/hook ' } });
    expect((screen.getByLabelText('Event') as HTMLSelectElement).value).toBe('missed_checkins');
    expect((screen.getByLabelText('Retry failed deliveries') as HTMLInputElement).checked).toBe(true);
    submit();
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate.mock.calls[0]![0]).toEqual({ url: 'http://127.0.0.1:9999/hook', event: 'missed_checkins', retry: true });
  });

  it('sends a supplied secret and retry off', async () => {
    const { onCreate } = setup();
    fireEvent.change(screen.getByLabelText(/^Endpoint URL/), { target: { value: 'https://example.com/h' } });
    fireEvent.change(screen.getByLabelText('Signing secret (optional)'), { target: { value: WEBHOOK_SECRET } });
    fireEvent.click(screen.getByLabelText('Retry failed deliveries'));
    submit();
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate.mock.calls[0]![0]).toEqual({ url: 'https://example.com/h', event: 'missed_checkins', retry: false, hmac_secret: WEBHOOK_SECRET });
  });

  it('explains a missing URL or a malformed secret instead of sending', async () => {
    const { onCreate } = setup();
    submit();
    expect(await screen.findByText(T.urlRequired)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Endpoint URL/), { target: { value: 'not a url' } });
    submit();
    expect(await screen.findByText(T.urlInvalid)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Endpoint URL/), { target: { value: 'https://example.com/h' } });
    fireEvent.change(screen.getByLabelText('Signing secret (optional)'), { target: { value: 'whsec_short' } });
    submit();
    expect(await screen.findByText(T.secretFormat)).toBeTruthy();
    expect(screen.getByLabelText('Signing secret (optional)').getAttribute('aria-invalid')).toBe('true');
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('shows the whole secret once, with copy and a warning, then forgets it', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    setup();
    fireEvent.change(screen.getByLabelText(/^Endpoint URL/), { target: { value: 'https://example.com/hooks/afterword' } });
    submit();
    const panel = await screen.findByRole('region', { name: T.secretOnceTitle });
    expect(within(panel).getByLabelText('Signing secret for https://example.com/hooks/afterword').textContent).toBe(WEBHOOK_SECRET);
    expect(panel.textContent).toContain('It will not be shown again');
    fireEvent.click(within(panel).getByRole('button', { name: T.secretCopy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(WEBHOOK_SECRET));
    fireEvent.click(within(panel).getByRole('button', { name: T.onceDone }));
    expect(screen.queryByRole('region', { name: T.secretOnceTitle })).toBeNull();
    expect(document.body.textContent).not.toContain(WEBHOOK_SECRET);
    expect((screen.getByLabelText(/^Endpoint URL/) as HTMLInputElement).value).toBe('');
  });
});

describe('WebhookList', () => {
  it('shows status, the masked secret, and why a webhook was disabled', () => {
    setup({
      webhooks: [
        webhook(),
        webhook({
          id: 'w2',
          url: 'https://gone.example/h',
          status: 'disabled',
          disabled_reason: 'The endpoint answered 410 Gone.',
          disabled_at: '2026-05-14T10:00:00Z',
        }),
      ],
    });
    const [active, disabled] = screen.getAllByRole('listitem');
    expect(within(active!).getByText('Active')).toBeTruthy();
    expect(active!.textContent).toContain('whsec_…LaSw');
    expect(active!.textContent).toContain('attempts of 22222222-2222-4222-8222-222222222222');
    expect(within(disabled!).getByText('Disabled')).toBeTruthy();
    expect(disabled!.textContent).toContain('The endpoint answered 410 Gone.');
  });

  it("sends a test event to that webhook with 'Send test event'", async () => {
    const { onTest } = setup({ webhooks: [webhook({ id: 'w7', url: 'https://a.example/h' })] });
    fireEvent.click(screen.getByRole('button', { name: 'Send test event to https://a.example/h' }));
    await waitFor(() => expect(onTest).toHaveBeenCalledWith('w7'));
  });

  it('shows the test as on its way while it is', () => {
    setup({ webhooks: [webhook({ id: 'w7', url: 'https://a.example/h' })], testingId: 'w7' });
    const button = screen.getByRole('button', { name: 'Sending… to https://a.example/h' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  it('deletes only after the confirm', async () => {
    const { onDelete } = setup({ webhooks: [webhook({ id: 'w8', url: 'https://b.example/h' })] });
    fireEvent.click(screen.getByRole('button', { name: 'Delete webhook https://b.example/h' }));
    const dialog = await screen.findByRole('dialog', { name: T.deleteWebhookTitle });
    expect(dialog.textContent).toContain('https://b.example/h');
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: T.deleteWebhookConfirm }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith('w8'));
  });
});

describe('AttemptsLog', () => {
  it('lists attempts newest first with time, webhook-id, attempt, status, duration, error and source', () => {
    render(
      <AttemptsLog
        label="https://example.com/h"
        attempts={[
          attempt({ id: 'a1', attempt: 1, status_code: 503, success: false, duration_ms: 2345, error: 'HTTP 503', created_at: '2026-05-14T09:00:00Z' }),
          attempt({ id: 'a2', attempt: 2, status_code: 200, success: true, duration_ms: 87, created_at: '2026-05-14T09:00:05Z' }),
          attempt({
            id: 'a3',
            message_id: 'msg_other',
            attempt: 1,
            status_code: null,
            success: false,
            duration_ms: 10_000,
            error: 'Timed out after 10 s',
            origin: 'sandbox',
            created_at: '2026-05-14T08:00:00Z',
          }),
          attempt({
            id: 'a4',
            message_id: 'msg_test',
            attempt: 1,
            status_code: 200,
            success: true,
            duration_ms: 12,
            origin: 'test',
            created_at: '2026-05-14T07:00:00Z',
          }),
        ]}
      />,
    );
    const table = screen.getByRole('table', { name: /Delivery attempts to https:\/\/example.com\/h/ });
    const header = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(header).toEqual(['Time', 'webhook-id', 'Attempt', 'Status', 'Duration', 'Error', 'Source']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(1)
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['msg_first', '2', '200 delivered', '87 ms', '—', 'Missed check-in'],
      ['msg_first', '1', '503 failed', '2.3 s', 'HTTP 503', 'Missed check-in'],
      ['msg_other', '1', 'No answer', '10.0 s', 'Timed out after 10 s', 'Sandbox (simulated)'],
      ['msg_test', '1', '200 delivered', '12 ms', '—', 'Test event'],
    ]);
  });

  it('says what the log is for when there is nothing yet', () => {
    render(<AttemptsLog label="https://example.com/h" attempts={[]} />);
    expect(screen.getByText('No delivery attempts yet.')).toBeTruthy();
  });
});
