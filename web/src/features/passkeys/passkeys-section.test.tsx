import type { TPasskey } from '@afterword/worker/contracts/passkeys';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { passkeyUnavailableReason } from './passkey-browser';
import { PasskeysSection } from './passkeys-section';

const phone: TPasskey = { id: 'cred-1', name: 'Phone', backed_up: true, created_at: '2026-11-01T09:00:00.000Z', last_used_at: null };

describe('Notifications → Passkeys', () => {
  it('lists each passkey by name, with when it was added and whether it is synced', () => {
    render(<PasskeysSection passkeys={[phone]} unavailable={null} onMake={vi.fn()} onRemove={vi.fn()} />);
    const item = within(screen.getByRole('list', { name: 'Your passkeys' })).getByRole('listitem');
    expect(within(item).getByRole('heading', { name: 'Phone' })).toBeTruthy();
    expect(item.textContent).toContain('Not yet');
    expect(item.textContent).toContain('Synced by its provider');
  });

  it('asks for a name before making one, then makes it with the name and clears the field', async () => {
    const onMake = vi.fn(async () => true);
    render(<PasskeysSection passkeys={[]} unavailable={null} onMake={onMake} onRemove={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Give the passkey a name, e.g. the device it is on')).toBeTruthy();
    expect(onMake).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Laptop ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(onMake).toHaveBeenCalledWith('Laptop'));
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(''));
  });

  it('removes one only after the question is answered', async () => {
    const onRemove = vi.fn(async () => true);
    render(<PasskeysSection passkeys={[phone]} unavailable={null} onMake={vi.fn()} onRemove={onRemove} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Phone' }));
    expect(onRemove).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(onRemove).toHaveBeenCalledWith('cred-1'));
  });

  it('says why passkeys cannot be made here instead of offering the form', () => {
    render(<PasskeysSection passkeys={[]} unavailable="This browser cannot use passkeys." onMake={vi.fn()} onRemove={vi.fn()} />);
    expect(screen.getByRole('note').textContent).toBe('This browser cannot use passkeys.');
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});

describe('where passkeys work', () => {
  it('an app opened at a loopback address is sent to localhost on the same port', () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    try {
      expect(passkeyUnavailableReason({ hostname: '127.0.0.1', port: '8787', protocol: 'http:' })).toBe(
        'Passkeys need a name, not an address: open http://localhost:8787 to use them.',
      );
      expect(passkeyUnavailableReason({ hostname: 'localhost', port: '8787', protocol: 'http:' })).toBeNull();
      expect(passkeyUnavailableReason({ hostname: 'afterword.app', port: '', protocol: 'https:' })).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
