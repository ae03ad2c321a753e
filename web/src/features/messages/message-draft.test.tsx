import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { CreateMessageForm } from './create-message-form';
import { memoryRecord } from '../../test-utils/memory-record';
import { createDraftStore, type DraftRecord } from './message-draft';
import { DRAFT_TEXTS } from './use-message-draft';

const OWNER = '11111111-2222-4333-8444-555555555555';
const OTHER = '22222222-2222-4333-8444-555555555555';
const RECIPIENT = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
type Create = (input: TCreateMessageInput) => Promise<{ id: string }>;

const memoryBackend = () => memoryRecord<DraftRecord>();

const fields = (content: string) => ({
  content,
  recipient: RECIPIENT,
  method: 'sms',
  deliverAt: '',
  rules: [{ trigger_type: 'missed_checkins' as const, value: '3', expire: '' }],
});

describe('the message draft store', () => {
  it('keeps the fields sealed: the stored bytes hold no word of the message, and the key cannot be read out', async () => {
    const { backend, stored } = memoryBackend();
    const drafts = createDraftStore(backend, () => 1_700_000_000_000);
    await drafts.save(OWNER, fields('Meet me at the old oak, marker-991'));
    const record = stored()!;
    expect(new TextDecoder().decode(record.ct)).not.toContain('marker-991');
    expect(record.deviceKey.extractable).toBe(false);
    expect(await drafts.load(OWNER)).toEqual({ ...fields('Meet me at the old oak, marker-991'), savedAt: 1_700_000_000_000 });
  });

  it("is one account's: another account finds nothing, and a record that does not open is removed", async () => {
    const { backend, stored } = memoryBackend();
    const drafts = createDraftStore(backend);
    await drafts.save(OWNER, fields('mine'));
    expect(await drafts.load(OTHER)).toBeNull();
    const record = stored()!;
    await backend.write({ ...record, ct: new Uint8Array(record.ct.length) });
    expect(await drafts.load(OWNER)).toBeNull();
    expect(stored()).toBeNull();
  });

  it('an empty form removes the draft instead of keeping an empty one', async () => {
    const { backend, stored } = memoryBackend();
    const drafts = createDraftStore(backend);
    await drafts.save(OWNER, fields('something'));
    await drafts.save(OWNER, { content: ' ', recipient: '', method: 'email', deliverAt: '', rules: [] });
    expect(stored()).toBeNull();
  });
});

describe('CreateMessageForm with a draft', () => {
  afterEach(() => act(() => toastStore.reset()));

  function setup(store: ReturnType<typeof createDraftStore>, create = vi.fn<Create>(async () => ({ id: 'm-1' }))) {
    const onCreated = vi.fn();
    const view = render(<CreateMessageForm create={create} onCreated={onCreated} drafts={{ store, userId: OWNER }} />);
    return { create, onCreated, view };
  }

  it('keeps what is typed, brings it back when the form opens again, and says a recording and files are not kept', async () => {
    const { backend } = memoryBackend();
    const store = createDraftStore(backend);
    const first = setup(store);
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Half a letter' } });
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(async () => expect((await store.load(OWNER))?.content).toBe('Half a letter'));
    first.view.unmount();

    setup(store);
    await waitFor(() => expect((screen.getByLabelText(/^Message/) as HTMLTextAreaElement).value).toBe('Half a letter'));
    expect((screen.getByLabelText(/^Recipient User ID/) as HTMLInputElement).value).toBe(RECIPIENT);
    expect(screen.getAllByRole('group', { name: /^Rule \d+$/ })).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain('A recording and chosen files are not kept in a draft');
  });

  it('a draft that arrives after the person started typing does not overwrite what they typed', async () => {
    const { backend } = memoryBackend();
    const store = createDraftStore(backend);
    await store.save(OWNER, fields('An old draft'));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowRead = backend.read;
    backend.read = async () => {
      await gate;
      return slowRead();
    };
    setup(store);
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Typed first' } });
    release();
    await waitFor(async () => expect((await store.load(OWNER))?.content).toBe('Typed first'));
    expect((screen.getByLabelText(/^Message/) as HTMLTextAreaElement).value).toBe('Typed first');
    expect(screen.queryByRole('button', { name: DRAFT_TEXTS.discard })).toBeNull();
  });

  it('drops the draft once the message is created', async () => {
    const { backend, stored } = memoryBackend();
    const store = createDraftStore(backend);
    const { create } = setup(store);
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Sent soon' } });
    await waitFor(() => expect(stored()).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Create message' }));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(stored()).toBeNull());
  });

  it('Discard draft empties the form and forgets the draft', async () => {
    const { backend, stored } = memoryBackend();
    const store = createDraftStore(backend);
    await store.save(OWNER, fields('An old draft'));
    setup(store);
    const discard = await screen.findByRole('button', { name: DRAFT_TEXTS.discard });
    fireEvent.click(discard);
    await waitFor(() => expect((screen.getByLabelText(/^Message/) as HTMLTextAreaElement).value).toBe(''));
    await waitFor(() => expect(stored()).toBeNull());
    expect(screen.queryByRole('button', { name: DRAFT_TEXTS.discard })).toBeNull();
  });
});
