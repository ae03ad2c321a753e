import type { KeyBundleView, PublicKeyView } from '@afterword/worker/contracts/e2ee';
import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { decryptFile, exportPublicJwk, generateKeyPair, openEnvelope, utf8Decode, utf8Encode } from '../../crypto';
import type { EncryptedUpload } from '../e2ee/files-api';
import { T, UPLOAD_DONE, UPLOAD_FAILED } from '../e2ee/texts';
import { CREATE_FAILURE_TOAST, CreateMessageForm, E2EE_SAVED_TOAST, type E2eeCreateDeps } from './create-message-form';

const SENDER = '11111111-2222-4333-8444-555555555555';
const RECIPIENT = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
type Create = (input: TCreateMessageInput) => Promise<{ id: string }>;

let senderKeys: CryptoKeyPair;
let recipientKeys: CryptoKeyPair;
let senderBundle: KeyBundleView;
let recipientView: PublicKeyView;

beforeAll(async () => {
  senderKeys = await generateKeyPair();
  recipientKeys = await generateKeyPair();
  // Only public_key is read when sealing; the wraps are never touched here.
  senderBundle = { public_key: await exportPublicJwk(senderKeys.publicKey), created_at: '2026-01-01T00:00:00.000Z' } as KeyBundleView;
  recipientView = { user_id: RECIPIENT, public_key: await exportPublicJwk(recipientKeys.publicKey) };
});

function deps(overrides: Partial<E2eeCreateDeps['keys']> = {}, upload = vi.fn(async (_f: EncryptedUpload) => ({ id: 'a' }))) {
  const keys: E2eeCreateDeps['keys'] = {
    whoami: vi.fn(async () => ({ id: SENDER, email: 'sender@example.test' })),
    mine: vi.fn(async () => senderBundle),
    publicKeyOf: vi.fn(async (id: string) => (id.toLowerCase() === RECIPIENT ? recipientView : null)),
    ...overrides,
  };
  return { keys, upload };
}

function setup(e2ee: E2eeCreateDeps, create = vi.fn<Create>(async () => ({ id: 'm-1' }))) {
  const onCreated = vi.fn();
  render(<CreateMessageForm create={create} onCreated={onCreated} e2ee={e2ee} />);
  return { create, onCreated };
}

const toasts = () => toastStore.getSnapshot().map((t) => [t.kind, t.message]);
const submit = () => fireEvent.click(screen.getByRole('button', { name: /^(Create message|Creating…)$/ }));

function fill(text: string, recipient = RECIPIENT) {
  fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: text } });
  fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: recipient } });
  fireEvent.click(screen.getByLabelText('Use end-to-end encryption'));
}

describe('CreateMessageForm with end-to-end encryption', () => {
  afterEach(() => act(() => toastStore.reset()));

  it('seals the text for the recipient and the sender, sends content "" and the envelope, and toasts the E2EE text', async () => {
    const d = deps();
    const { create, onCreated } = setup(d);
    fill('Dear Ada, the keys are in the blue box.');
    submit();
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const input = create.mock.calls[0]![0];
    expect(input).toMatchObject({ recipient_user_id: RECIPIENT, content: '', use_e2ee: true, consent: true });
    expect(input.audio_base64).toBeUndefined();
    expect(input.content_encrypted).not.toContain('blue box');
    const envelope = JSON.parse(input.content_encrypted!);
    expect(envelope.recipients.map((r: { kid: string }) => r.kid)).toEqual([RECIPIENT, SENDER]);
    for (const [kid, privateKey] of [
      [RECIPIENT, recipientKeys.privateKey],
      [SENDER, senderKeys.privateKey],
    ] as const) {
      const { payload } = await openEnvelope(input.content_encrypted!, { kid, privateKey });
      expect(payload).toEqual({ text: 'Dear Ada, the keys are in the blue box.' });
    }
    expect(d.keys.publicKeyOf).toHaveBeenCalledWith(RECIPIENT);
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ id: 'm-1' }));
    expect(toasts()).toEqual([['success', E2EE_SAVED_TOAST]]);
    expect(E2EE_SAVED_TOAST).toBe('Encrypted message saved');
  });

  it('encrypts chosen files at once, shows each key, seals the keys in the payload, then uploads each ciphertext', async () => {
    const upload = vi.fn(async (f: EncryptedUpload) => {
      if (f.name === 'broken.bin') throw new Error('Storage quota exceeded');
      return { id: 'a' };
    });
    const d = deps({}, upload);
    const { create, onCreated } = setup(d);
    fill('With files');
    const notes = new File([utf8Encode('secret notes marker-123')], 'notes.txt', { type: 'text/plain' });
    const broken = new File([new Uint8Array([1, 2, 3])], 'broken.bin', { type: 'application/octet-stream' });
    fireEvent.change(screen.getByLabelText(T.attachmentChoose), { target: { files: [notes, broken] } });

    const notesItem = await screen.findByRole('listitem', { name: 'notes.txt' });
    const shownKey = notesItem.querySelector('code')!.textContent!;
    expect(shownKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(within(notesItem).getByRole('button', { name: 'Copy key for notes.txt' })).toBeTruthy();
    expect(within(notesItem).getByText(T.attachmentReady)).toBeTruthy();

    submit();
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(2));
    const input = create.mock.calls[0]![0];
    const { payload } = await openEnvelope(input.content_encrypted!, { kid: RECIPIENT, privateKey: recipientKeys.privateKey });
    expect(payload.attachments?.map((a) => [a.name, a.type, a.size])).toEqual([
      ['notes.txt', 'text/plain', 23],
      ['broken.bin', 'application/octet-stream', 3],
    ]);
    expect(payload.attachments![0]!.key).toBe(shownKey);

    // Not due before the files are up: at least 5 minutes from now.
    expect(Date.parse(input.deliver_at!)).toBeGreaterThan(Date.now() + 4 * 60_000);

    const sent = upload.mock.calls[0]![0];
    expect(sent.messageId).toBe('m-1');
    expect(sent.name).toBe('notes.txt');
    expect(new TextDecoder().decode(sent.ciphertext)).not.toContain('marker-123');
    const plain = await decryptFile(shownKey, payload.attachments![0]!.iv, sent.ciphertext);
    expect(utf8Decode(plain)).toBe('secret notes marker-123');

    expect(await within(screen.getByRole('listitem', { name: 'notes.txt' })).findByText(UPLOAD_DONE)).toBeTruthy();
    expect(await within(screen.getByRole('listitem', { name: 'broken.bin' })).findByText(UPLOAD_FAILED)).toBeTruthy();
    expect(screen.getByText('Storage quota exceeded')).toBeTruthy();
    expect(toasts()).toEqual([['success', E2EE_SAVED_TOAST]]);
    expect(onCreated).not.toHaveBeenCalled();

    // A retry uploads only what failed; then the message can be opened.
    upload.mockImplementation(async () => ({ id: 'b' }));
    fireEvent.click(screen.getByRole('button', { name: T.retryUploads }));
    expect(await within(screen.getByRole('listitem', { name: 'broken.bin' })).findByText(UPLOAD_DONE)).toBeTruthy();
    expect(upload).toHaveBeenCalledTimes(3);
    fireEvent.click(screen.getByRole('button', { name: T.openMessage }));
    expect(onCreated).toHaveBeenCalledWith({ id: 'm-1' });
  });

  it('sends a failed try again as it was sealed when the owner presses Create again unchanged (so its retry keeps its key)', async () => {
    const create = vi.fn<Create>().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce({ id: 'm-1' });
    const { onCreated } = setup(deps(), create);
    fill('Sealed once');
    submit();
    await waitFor(() => expect(toasts()).toEqual([['error', CREATE_FAILURE_TOAST]]));
    submit();
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ id: 'm-1' }));
    expect(create).toHaveBeenCalledTimes(2);
    expect(create.mock.calls[1]![0]).toBe(create.mock.calls[0]![0]);
  });

  it('seals the message anew once the owner changed it after a failure: a new message, not a retry', async () => {
    const create = vi.fn<Create>().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce({ id: 'm-1' });
    setup(deps(), create);
    fill('First words');
    submit();
    await waitFor(() => expect(toasts()).toEqual([['error', CREATE_FAILURE_TOAST]]));
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Second words' } });
    submit();
    await waitFor(() => expect(create).toHaveBeenCalledTimes(2));
    const { payload } = await openEnvelope(create.mock.calls[1]![0].content_encrypted!, { kid: RECIPIENT, privateKey: recipientKeys.privateKey });
    expect(payload).toEqual({ text: 'Second words' });
  });

  it('refuses before sending when the recipient has no keys, under the recipient field', async () => {
    const { create } = setup(deps({ publicKeyOf: vi.fn(async () => null) }));
    fill('Sealed');
    submit();
    expect(await screen.findByText(T.recipientNoKeys)).toBeTruthy();
    expect(screen.getByLabelText(/^Recipient User ID/).getAttribute('aria-invalid')).toBe('true');
    expect(create).not.toHaveBeenCalled();
    expect(toasts()).toEqual([['error', CREATE_FAILURE_TOAST]]);
  });

  it('refuses when the sender has no keys yet, under the E2EE box', async () => {
    const { create } = setup(deps({ mine: vi.fn(async () => null) }));
    fill('Sealed');
    submit();
    expect(await screen.findByText(T.senderNoKeys)).toBeTruthy();
    expect(screen.getByLabelText('Use end-to-end encryption').getAttribute('aria-invalid')).toBe('true');
    expect(create).not.toHaveBeenCalled();
    expect(toasts()).toEqual([['error', CREATE_FAILURE_TOAST]]);
  });

  it('is on by default once the recipient typed has keys, and seals without a tick', async () => {
    const d = deps();
    const { create } = setup(d);
    const box = screen.getByLabelText('Use end-to-end encryption') as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Sealed by default' } });
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT.toUpperCase() } });
    await waitFor(() => expect(box.checked).toBe(true));
    expect(screen.getByText(T.e2eeOnForRecipient)).toBeTruthy();
    expect(d.keys.publicKeyOf).toHaveBeenCalledWith(RECIPIENT);
    submit();
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0]).toMatchObject({ content: '', use_e2ee: true });
  });

  it('stays off, and says why, for a recipient without keys or a sender without keys', async () => {
    setup(deps({ publicKeyOf: vi.fn(async () => null) }));
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    expect(await screen.findByText(T.e2eeUnavailable['recipient-has-no-keys'])).toBeTruthy();
    expect((screen.getByLabelText('Use end-to-end encryption') as HTMLInputElement).checked).toBe(false);
    cleanup();
    setup(deps({ mine: vi.fn(async () => null) }));
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    expect(await screen.findByText(T.e2eeUnavailable['sender-has-no-keys'])).toBeTruthy();
    expect((screen.getByLabelText('Use end-to-end encryption') as HTMLInputElement).checked).toBe(false);
  });

  it('a person who unticks it keeps it off for that recipient', async () => {
    const { create } = setup(deps());
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Plain on purpose' } });
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    const box = screen.getByLabelText('Use end-to-end encryption') as HTMLInputElement;
    await waitFor(() => expect(box.checked).toBe(true));
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    submit();
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0]).toMatchObject({ content: 'Plain on purpose', use_e2ee: false });
  });

  it('hides the file picker without the E2EE tick', () => {
    setup(deps());
    expect(screen.queryByLabelText(T.attachmentChoose)).toBeNull();
    fireEvent.click(screen.getByLabelText('Use end-to-end encryption'));
    expect(screen.getByLabelText(T.attachmentChoose)).toBeTruthy();
  });
});
