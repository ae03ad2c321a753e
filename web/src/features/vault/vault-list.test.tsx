import type { VaultItemView } from '@afterword/worker/contracts/vault';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/session';
import { formatDateTime } from '../../lib/format-time';
import { renderWithQuery } from '../../test-utils/query-client';
import { T } from './texts';
import { VaultList } from './vault-list';

const item = (over: Partial<VaultItemView> = {}): VaultItemView => ({
  id: 'v1',
  asset_id: 'a1',
  recipient_user_id: '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a',
  recipient_name: 'Rita Recipient',
  recipient_email: 'rita@example.com',
  condition_type: 'recipient_birthday',
  condition_value: '05-14',
  every_year: false,
  legal_note: null,
  name: 'will.pdf',
  size: 2_500_000,
  status: 'scheduled',
  paused: null,
  message_id: 'm1',
  released_at: null,
  condition_text: 'On their birthday, 14 May, after my death is confirmed',
  qr_code_url: 'https://afterword.example/api/vault/claim/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/qr',
  claim_url: 'https://afterword.example/claim/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  created_at: '2026-05-01T10:00:00Z',
  ...over,
});

/** A fetch that would answer the QR code: the list must not need it (an <img> loads the code). */
function fakeQrEndpoint() {
  const fetch = vi.fn(
    async (_url: string, _init?: RequestInit) => new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { headers: { 'content-type': 'image/svg+xml' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe("the owner's vault list", () => {
  beforeEach(() => setToken('owner-session'));
  afterEach(() => vi.unstubAllGlobals());

  it('says so when the vault is empty', () => {
    fakeQrEndpoint();
    renderWithQuery(<VaultList items={[]} onDelete={vi.fn()} deletePending={false} />);
    expect(screen.getByText(T.emptyTitle)).toBeTruthy();
  });

  it('shows each file with its size, recipient, condition, status, claim link and the QR code of that link', async () => {
    const fetch = fakeQrEndpoint();
    renderWithQuery(<VaultList items={[item()]} onDelete={vi.fn()} deletePending={false} />);
    const row = screen.getByRole('listitem', { name: 'will.pdf' });
    for (const text of ['2.5 MB', 'Rita Recipient (rita@example.com)', 'On their birthday, 14 May, after my death is confirmed', 'Scheduled']) {
      expect(row.textContent).toContain(text);
    }
    expect(within(row).getByRole('link', { name: item().claim_url }).getAttribute('href')).toBe(item().claim_url);
    expect(within(row).getByRole('button', { name: 'Copy link for will.pdf' })).toBeTruthy();

    const qr = await within(row).findByRole('img', { name: 'QR code of the claim link for will.pdf' });
    // By path on the app's own origin (CSP img-src 'self'): the code is public like the link it encodes.
    expect(qr.getAttribute('src')).toBe('/api/vault/claim/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/qr');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('offers Delete only before release, and shows when a released item was released', () => {
    fakeQrEndpoint();
    renderWithQuery(
      <VaultList
        items={[
          item({ id: 'v1', name: 'will.pdf', status: 'scheduled' }),
          item({ id: 'v2', name: 'letter.pdf', status: 'armed' }),
          item({ id: 'v3', name: 'photos.zip', status: 'delivered', released_at: '2026-06-01T09:00:00Z' }),
        ]}
        onDelete={vi.fn()}
        deletePending={false}
      />,
    );
    expect(within(screen.getByRole('listitem', { name: 'will.pdf' })).getByRole('button', { name: 'Delete will.pdf' })).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'letter.pdf' })).getByRole('button', { name: 'Delete letter.pdf' })).toBeTruthy();
    const released = screen.getByRole('listitem', { name: 'photos.zip' });
    expect(within(released).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(released.textContent).toContain('Delivered');
    expect(within(released).getByText(T.released)).toBeTruthy();
    expect(released.querySelector('time')!.getAttribute('datetime')).toBe('2026-06-01T09:00:00Z');
  });

  it("shows an exact date in the reader's time zone rather than as an ISO instant", () => {
    fakeQrEndpoint();
    const at = '2099-05-14T09:30:00+00:00';
    renderWithQuery(
      <VaultList items={[item({ condition_type: 'exact_date', condition_value: at, condition_text: `On ${at}` })]} onDelete={vi.fn()} deletePending={false} />,
    );
    const row = screen.getByRole('listitem', { name: 'will.pdf' });
    expect(row.textContent).toContain(`On ${formatDateTime(at)}`);
    expect(row.textContent).not.toContain(at);
  });

  it('deletes only after the confirm, which says what will happen', async () => {
    fakeQrEndpoint();
    const onDelete = vi.fn(async (_id: string) => true);
    renderWithQuery(<VaultList items={[item({ id: 'v9' })]} onDelete={onDelete} deletePending={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete will.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: T.deleteTitle });
    expect(dialog.textContent).toContain('it will not be released to Rita Recipient (rita@example.com)');
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: T.deleteConfirm }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith('v9'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
