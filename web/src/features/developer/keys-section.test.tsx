import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { KEY_SHOWN_ONCE_NOTE } from './create-key-form';
import { KeysSection } from './keys-section';
import { T } from './texts';
import { apiKey, createdKey, KEY_SECRET } from './test-fixtures';
import type { ApiKey, CreatedKey, CreateKeyInput } from './types';

type OnCreate = (input: CreateKeyInput) => Promise<CreatedKey | null>;

function setup({ keys = [] as ApiKey[], onCreate = vi.fn<OnCreate>(async () => createdKey()), onRevoke = vi.fn(async (_id: string) => true) } = {}) {
  const view = render(
    <KeysSection keys={keys} loading={false} loadFailed={null} onCreate={onCreate} createPending={false} onRevoke={onRevoke} revokePending={false} />,
  );
  return { onCreate, onRevoke, view };
}

async function createKey(name = 'Home automation', scopes = ['read:canary']) {
  fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: name } });
  for (const s of scopes) fireEvent.click(screen.getByLabelText(s));
  fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
}

describe('KeysSection: the new key is shown once', () => {
  afterEach(() => {
    toastStore.reset();
    vi.unstubAllGlobals();
  });

  it('says before the button, not only after, that the key will be shown once', () => {
    setup();
    const note = screen.getByText(KEY_SHOWN_ONCE_NOTE);
    const button = screen.getByRole('button', { name: 'Create key' });
    expect(note.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the new key with a warning that it will not be shown again, and a copy button', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    setup();
    await createKey();
    const panel = await screen.findByRole('region', { name: T.keyOnceTitle });
    expect(within(panel).getByLabelText('API key for Home automation').textContent).toBe(KEY_SECRET);
    expect(panel.textContent).toContain('It will not be shown again');
    expect(document.activeElement).toBe(panel);

    fireEvent.click(within(panel).getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(KEY_SECRET));
    expect(toastStore.getSnapshot().map((t) => t.message)).toContain('API key copied');
  });

  it('forgets the key once it is saved: it is nowhere on the page, and the list has only the prefix', async () => {
    const { view } = setup();
    await createKey();
    const panel = await screen.findByRole('region', { name: T.keyOnceTitle });
    fireEvent.click(within(panel).getByRole('button', { name: T.onceDone }));
    expect(screen.queryByRole('region', { name: T.keyOnceTitle })).toBeNull();
    expect(document.body.textContent).not.toContain(KEY_SECRET);

    view.rerender(
      <KeysSection keys={[apiKey()]} loading={false} loadFailed={null} onCreate={vi.fn()} createPending={false} onRevoke={vi.fn()} revokePending={false} />,
    );
    const item = screen.getByRole('listitem');
    expect(item.textContent).toContain('afw_test_AbCd…');
    expect(document.body.textContent).not.toContain(KEY_SECRET);
  });

  it('shows no panel when creating failed, and keeps what was typed', async () => {
    setup({ onCreate: vi.fn<OnCreate>(async () => null) });
    await createKey('Zapier');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create key' })).toBeTruthy());
    expect(screen.queryByRole('region', { name: T.keyOnceTitle })).toBeNull();
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Zapier');
  });
});

describe('CreateKeyForm: scopes', () => {
  it('explains every scope in one line', () => {
    setup();
    const group = screen.getByRole('group', { name: 'Scopes' });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['read:canary', 'read:messages', 'create:vault', 'webhook:death-verification']);
    for (const box of boxes) expect(box.getAttribute('aria-describedby')).toBeTruthy();
    expect(group.textContent).toContain('Read your canaries and their status.');
  });

  it('asks for a name and at least one scope before sending anything', async () => {
    const { onCreate } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText(T.noScope)).toBeTruthy();
    expect(screen.getByText(T.nameRequired)).toBeTruthy();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('sends the chosen scopes in their listed order, and the sandbox choice', async () => {
    const { onCreate } = setup();
    fireEvent.click(screen.getByLabelText(/^Sandbox key/));
    await createKey('  Zapier  ', ['read:messages', 'read:canary', 'create:vault']);
    await waitFor(() => expect(onCreate).toHaveBeenCalledTimes(1));
    expect(onCreate.mock.calls[0]![0]).toEqual({ name: 'Zapier', scopes: ['read:canary', 'read:messages', 'create:vault'], sandbox: true });
  });

  it('clears the form after a key was created', async () => {
    setup();
    await createKey('Zapier', ['read:messages']);
    await screen.findByRole('region', { name: T.keyOnceTitle });
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('read:messages') as HTMLInputElement).checked).toBe(false);
  });
});

describe('KeyList', () => {
  it('lists name, prefix, scopes, sandbox, usage, last use and creation', () => {
    setup({
      keys: [
        apiKey({ scopes: ['read:canary', 'read:messages'], usage_count: 1234, last_used_at: '2026-05-14T10:00:00Z' }),
        apiKey({ id: 'k2', client_name: 'Live one', sandbox: false, prefix: 'afw_live_Zz99' }),
      ],
    });
    const [first, second] = screen.getAllByRole('listitem');
    expect(first!.textContent).toContain('Sandbox');
    expect(first!.textContent).toContain('read:canary');
    expect(first!.textContent).toContain('read:messages');
    expect(first!.textContent).toMatch(/1[,.\u202f ]?234/);
    expect(first!.querySelectorAll('time')).toHaveLength(2);
    expect(second!.textContent).toContain('Live');
    expect(second!.textContent).toContain('afw_live_Zz99…');
    expect(second!.textContent).toContain('Never');
  });

  it('revokes only after the confirm, which says what happens', async () => {
    const { onRevoke } = setup({ keys: [apiKey({ id: 'k9', client_name: 'Zapier' })] });
    fireEvent.click(screen.getByRole('button', { name: 'Revoke key Zapier' }));
    const dialog = await screen.findByRole('dialog', { name: T.revokeTitle });
    expect(dialog.textContent).toContain('stops working at once');
    expect(onRevoke).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: T.revokeConfirm }));
    await waitFor(() => expect(onRevoke).toHaveBeenCalledWith('k9'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
