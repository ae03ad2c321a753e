import type { TReplaceRecoveryKey } from '@afterword/worker/contracts/auth';
import type { KeyBundleView, TWrappedPrivateKey } from '@afterword/worker/contracts/e2ee';
import type { AttachmentView } from '@afterword/worker/contracts/attachments';
import type { MessageView } from '@afterword/worker/contracts/messages';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import {
  bytesToBase64url,
  createKeyBundle,
  encryptFile,
  exportPublicJwk,
  generateKeyPair,
  recoveryKeyFileText,
  sealMessage,
  unwrapPrivateKey,
  unwrapPrivateKeyPkcs8,
  utf8Decode,
  utf8Encode,
  type NewKeyBundle,
} from '../../crypto';
import { createTestQueryClient, QueryWrapper } from '../../test-utils/query-client';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { messageView } from '../messages/test-fixtures';
import { EncryptedMessageBody, type SealedFiles } from './encrypted-message';
import { multipartBody } from './files-api';
import { createE2eeStore, E2eeStoreProvider } from './key-store';
import { makeNewRecoveryKey, setUpKeysAfterSignIn, unlockWithPassword, type KeysApi } from './keys-api';
import { PasswordSection } from './password-section';
import { RecoveryKeyGate, RecoveryKeyModal } from './recovery-key-modal';
import { RecoveryKeySection } from './recovery-key-section';
import { extractRecoveryKey, ResetPasswordFlow, type ResetApi } from './reset-password-flow';
import { T } from './texts';
import { UnlockPrompt } from './unlock-prompt';
import { useOpenedMessage, type Reader } from './use-opened-message';

const ME = '11111111-2222-4333-8444-555555555555';
const OTHER = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
const PASSWORD = 'Correct-Horse-Battery-42';
/** The lowest count the contract accepts: the same code path, quicker tests. */
const FAST = { iterations: 100_000 };

let bundle: NewKeyBundle;
beforeAll(async () => {
  bundle = await createKeyBundle(PASSWORD, FAST);
});

/** A bundle whose recovery key the owner saved (`saved: false`: one they never said they saved). */
const view = (b: NewKeyBundle, { saved = true } = {}): KeyBundleView => ({
  ...b.bundle,
  recovery_saved_at: saved ? '2026-01-02T00:00:00.000Z' : null,
  created_at: '2026-01-01T00:00:00.000Z',
});

function fakeApi(mine: KeyBundleView | null, overrides: Partial<KeysApi> = {}): KeysApi {
  return {
    whoami: vi.fn(async () => ({ id: ME, email: 'me@example.test' })),
    mine: vi.fn(async () => mine),
    create: vi.fn(async () => undefined),
    publicKeyOf: vi.fn(async () => null),
    replaceRecovery: vi.fn(async () => {
      throw new Error('replaceRecovery was not expected');
    }),
    recoverySaved: vi.fn(async () => undefined),
    ...overrides,
  };
}

afterEach(() => {
  act(() => toastStore.reset());
  vi.restoreAllMocks();
});

describe('RecoveryKeyModal', () => {
  it('shows the key once, offers copy and a .txt download, and closes only after the saved tick', async () => {
    const onSaved = vi.fn(async () => undefined);
    const key = bundle.recoveryKey;
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:recovery');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('afterword-recovery-key.txt');
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const createdAt = new Date('2026-03-04T05:06:07Z');
    render(
      <RecoveryKeyModal
        pending={{ email: 'me@example.test', recoveryKey: key, recoveryCt: bundle.bundle.recovery_wrap.ct, createdAt }}
        onSaved={onSaved}
        onReplaced={vi.fn()}
      />,
    );

    expect(screen.getByRole('dialog', { name: T.recoveryTitle })).toBeTruthy();
    expect(screen.getByText(key)).toBeTruthy();
    const close = screen.getByRole('button', { name: T.recoveryClose }) as HTMLButtonElement;
    expect(close.disabled).toBe(true);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(onSaved).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: T.recoveryCopy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(key));

    fireEvent.click(screen.getByRole('button', { name: T.recoveryDownload }));
    expect(clicked).toHaveBeenCalledTimes(1);
    const blob = created.mock.calls[0]![0] as Blob;
    expect(await blob.text()).toBe(recoveryKeyFileText('me@example.test', key, createdAt));

    fireEvent.click(screen.getByLabelText(T.recoverySaved));
    expect(close.disabled).toBe(false);
    fireEvent.click(close);
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
  });

  const pendingKey = () => ({ email: 'me@example.test', recoveryKey: bundle.recoveryKey, recoveryCt: bundle.bundle.recovery_wrap.ct });

  it('is shown by the gate while a key is pending, records the tick for that key, and is forgotten when closed', async () => {
    const store = createE2eeStore();
    const recoverySaved = vi.fn(async () => undefined);
    render(
      <E2eeStoreProvider store={store}>
        <RecoveryKeyGate recoverySaved={recoverySaved} />
      </E2eeStoreProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => store.showRecoveryKey(pendingKey()));
    fireEvent.click(screen.getByLabelText(T.recoverySaved));
    fireEvent.click(screen.getByRole('button', { name: T.recoveryClose }));
    await waitFor(() => expect(store.get().pendingRecovery).toBeNull());
    expect(recoverySaved).toHaveBeenCalledWith(bundle.bundle.recovery_wrap.ct);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays open and says so when the tick cannot be recorded; the key is still there to save', async () => {
    const store = createE2eeStore();
    const recoverySaved = vi.fn(async () => {
      throw new Error('network down');
    });
    render(
      <E2eeStoreProvider store={store}>
        <RecoveryKeyGate recoverySaved={recoverySaved} />
      </E2eeStoreProvider>,
    );
    act(() => store.showRecoveryKey(pendingKey()));
    fireEvent.click(screen.getByLabelText(T.recoverySaved));
    fireEvent.click(screen.getByRole('button', { name: T.recoveryClose }));
    await screen.findByRole('alert');
    expect(screen.getByRole('dialog', { name: T.recoveryTitle })).toBeTruthy();
    expect(screen.getByText(bundle.recoveryKey)).toBeTruthy();
    expect(store.get().pendingRecovery).not.toBeNull();
  });

  it('a key that a newer one replaced (409) is dropped with a toast that only the newest works', async () => {
    const store = createE2eeStore();
    const replaced = Object.assign(new Error('replaced'), { data: { httpStatus: 409 } });
    render(
      <E2eeStoreProvider store={store}>
        <RecoveryKeyGate
          recoverySaved={async () => {
            throw replaced;
          }}
        />
      </E2eeStoreProvider>,
    );
    act(() => store.showRecoveryKey(pendingKey()));
    fireEvent.click(screen.getByLabelText(T.recoverySaved));
    fireEvent.click(screen.getByRole('button', { name: T.recoveryClose }));
    await waitFor(() => expect(store.get().pendingRecovery).toBeNull());
    expect(toastStore.getSnapshot().some((t) => t.message === T.recoveryReplaced)).toBe(true);
  });

  it('waits while the welcome is read first, then shows the key', () => {
    const store = createE2eeStore();
    store.showRecoveryKey(pendingKey());
    const view = render(
      <E2eeStoreProvider store={store}>
        <RecoveryKeyGate held recoverySaved={vi.fn()} />
      </E2eeStoreProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    view.rerender(
      <E2eeStoreProvider store={store}>
        <RecoveryKeyGate held={false} recoverySaved={vi.fn()} />
      </E2eeStoreProvider>,
    );
    expect(screen.getByRole('dialog', { name: T.recoveryTitle })).toBeTruthy();
  });
});

describe('key setup and unlocking', () => {
  it('after sign-in, creates the first bundle, keeps its key in memory and queues the recovery key', async () => {
    const store = createE2eeStore();
    const api = fakeApi(null);
    expect(await setUpKeysAfterSignIn(api, store, PASSWORD)).toBe('created');
    const sent = vi.mocked(api.create).mock.calls[0]![0];
    expect(JSON.stringify(sent)).not.toContain(store.get().pendingRecovery!.recoveryKey.replace(/-/g, ''));
    expect(store.get().keys?.userId).toBe(ME);
    expect(store.get().keys?.privateKey.extractable).toBe(false);
    expect(store.get().pendingRecovery?.email).toBe('me@example.test');
    // The bundle sent opens with the password and with the recovery key shown.
    await unwrapPrivateKey(sent.password_wrap, { password: PASSWORD });
    await unwrapPrivateKey(sent.recovery_wrap, { recoveryKey: store.get().pendingRecovery!.recoveryKey });
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('after sign-in with a bundle, unlocks it and shows nothing', async () => {
    const store = createE2eeStore();
    expect(await setUpKeysAfterSignIn(fakeApi(view(bundle)), store, PASSWORD)).toBe('unlocked');
    expect(store.get().keys?.userId).toBe(ME);
    expect(store.get().pendingRecovery).toBeNull();
  });

  it('after sign-in with a recovery key never said to be saved, makes a new one with the password and shows it', async () => {
    const store = createE2eeStore();
    const replaceRecovery = vi.fn(async (input: TReplaceRecoveryKey) => ({
      ...view(bundle, { saved: false }),
      recovery_wrap: input.recovery_wrap as TWrappedPrivateKey,
    }));
    expect(await setUpKeysAfterSignIn(fakeApi(view(bundle, { saved: false }), { replaceRecovery }), store, PASSWORD)).toBe('unlocked');
    expect(replaceRecovery).toHaveBeenCalledTimes(1);
    const sent = replaceRecovery.mock.calls[0]![0];
    expect(sent.current_password).toBe(PASSWORD);
    const pending = store.get().pendingRecovery!;
    expect(pending).toMatchObject({ email: 'me@example.test', replacesUnsaved: true, recoveryCt: sent.recovery_wrap.ct });
    expect(pending.recoveryKey).not.toBe(bundle.recoveryKey);
    // The same private key under the new recovery key: every message stays readable.
    const viaNewKey = await unwrapPrivateKeyPkcs8(sent.recovery_wrap, { recoveryKey: pending.recoveryKey });
    const viaPassword = await unwrapPrivateKeyPkcs8(bundle.bundle.password_wrap, { password: PASSWORD });
    expect(viaNewKey).toEqual(viaPassword);
  });

  it('the unlock prompt does the same for an unsaved recovery key; a saved one is left alone', async () => {
    const unsaved = createE2eeStore();
    const replaceRecovery = vi.fn(async (input: TReplaceRecoveryKey) => ({
      ...view(bundle, { saved: false }),
      recovery_wrap: input.recovery_wrap as TWrappedPrivateKey,
    }));
    await unlockWithPassword(fakeApi(view(bundle, { saved: false }), { replaceRecovery }), unsaved, PASSWORD);
    expect(replaceRecovery).toHaveBeenCalledTimes(1);
    expect(unsaved.get().pendingRecovery?.replacesUnsaved).toBe(true);

    const saved = createE2eeStore();
    const api = fakeApi(view(bundle));
    await unlockWithPassword(api, saved, PASSWORD);
    expect(api.replaceRecovery).not.toHaveBeenCalled();
    expect(saved.get().pendingRecovery).toBeNull();
  });

  it('Settings makes a new recovery key with the password: a wrong one says so and changes nothing', async () => {
    const store = createE2eeStore();
    const replaceRecovery = vi.fn(async (input: TReplaceRecoveryKey) => ({
      ...view(bundle),
      recovery_wrap: input.recovery_wrap as TWrappedPrivateKey,
      recovery_saved_at: null,
    }));
    const api = fakeApi(view(bundle), { replaceRecovery });
    render(
      <RecoveryKeySection
        status={{ has_keys: true, recovery_saved_at: '2026-01-02T00:00:00.000Z' }}
        makeNew={(password) => makeNewRecoveryKey(api, store, password)}
      />,
    );
    expect(screen.getByText(/You saved your recovery key on/)).toBeTruthy();
    expect(screen.getByText(T.recoveryMakeNewIntro)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(T.currentPassword), { target: { value: 'not-the-password' } });
    fireEvent.click(screen.getByRole('button', { name: T.recoveryMakeNew }));
    expect(await screen.findByText(T.wrongCurrentPassword)).toBeTruthy();
    expect(replaceRecovery).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(T.currentPassword), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: T.recoveryMakeNew }));
    await waitFor(() => expect(store.get().pendingRecovery).not.toBeNull());
    expect(store.get().pendingRecovery?.recoveryCt).toBe(replaceRecovery.mock.calls[0]![0].recovery_wrap.ct);
    expect(store.get().pendingRecovery?.replacesUnsaved).toBeUndefined();
  });

  it('Settings says when the recovery key is not saved, and that there is none without keys', () => {
    render(<RecoveryKeySection status={{ has_keys: false, recovery_saved_at: null }} makeNew={vi.fn()} />);
    expect(screen.getByText(T.recoveryNoKeys)).toBeTruthy();
    cleanup();
    render(<RecoveryKeySection status={{ has_keys: true, recovery_saved_at: null }} makeNew={vi.fn()} />);
    expect(screen.getByText(T.recoveryNotSaved)).toBeTruthy();
  });

  it('the unlock prompt: a wrong password says so; the right one unlocks', async () => {
    const store = createE2eeStore();
    const api = fakeApi(view(bundle));
    render(<UnlockPrompt unlock={(p) => unlockWithPassword(api, store, p)} />);
    expect(screen.getByRole('heading', { name: T.unlockTitle })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'not-the-password' } });
    fireEvent.click(screen.getByRole('button', { name: T.unlockButton }));
    expect(await screen.findByText(T.unlockWrongPassword)).toBeTruthy();
    expect(store.get().keys).toBeNull();

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: T.unlockButton }));
    await waitFor(() => expect(store.get().keys?.userId).toBe(ME));
    expect(screen.queryByText(T.unlockWrongPassword)).toBeNull();
    expect(toastStore.getSnapshot().map((t) => t.message)).toEqual([T.unlocked]);
  });

  it('the unlock prompt stays in this tab by default; "stay unlocked" asks for how long, for personal devices', async () => {
    const unlock = vi.fn(async () => undefined);
    render(<UnlockPrompt unlock={unlock} />);
    const stay = screen.getByLabelText(T.stayUnlockedLabel) as HTMLInputElement;
    expect(stay.checked).toBe(false);
    expect(screen.getByText(T.stayUnlockedHint)).toBeTruthy();
    expect(screen.queryByLabelText(T.stayUnlockedFor)).toBeNull();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: T.unlockButton }));
    await waitFor(() => expect(unlock).toHaveBeenLastCalledWith(PASSWORD, null));

    fireEvent.click(stay);
    fireEvent.change(screen.getByLabelText(T.stayUnlockedFor), { target: { value: String(8 * 3_600_000) } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: T.unlockButton }));
    await waitFor(() => expect(unlock).toHaveBeenLastCalledWith(PASSWORD, 8 * 3_600_000));
  });

  it('the unlock prompt without any bundle says how keys are made', async () => {
    render(<UnlockPrompt unlock={(p) => unlockWithPassword(fakeApi(null), createE2eeStore(), p)} />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: T.unlockButton }));
    expect(await screen.findByText(T.unlockNoKeys)).toBeTruthy();
  });
});

describe('opening an E2EE message', () => {
  let mine: CryptoKeyPair;
  let other: CryptoKeyPair;
  let sealed: string;
  let fileCiphertext: Uint8Array;
  const FILE_TEXT = 'attachment marker-77';

  beforeAll(async () => {
    mine = await generateKeyPair();
    other = await generateKeyPair();
    const file = await encryptFile(utf8Encode(FILE_TEXT));
    fileCiphertext = file.ciphertext;
    const { envelope } = await sealMessage({
      payload: {
        text: 'The keys are in the blue box.\nLove, A.',
        attachments: [{ iv: file.ivText, key: file.keyText, name: 'notes.txt', type: 'text/plain', size: FILE_TEXT.length }],
      },
      readers: [{ kid: ME, publicKey: await exportPublicJwk(mine.publicKey) }],
    });
    sealed = JSON.stringify(envelope);
    // The server lists the upload with its IV in standard base64.
    listed = [
      { id: 'att-1', iv: btoa(String.fromCharCode(...file.iv)), name: 'notes.txt', size: file.ciphertext.length, created_at: '2026-01-01T00:00:00.000Z' },
    ];
  });
  let listed: AttachmentView[];

  function files(overrides: Partial<SealedFiles> = {}): SealedFiles {
    return {
      listAttachments: vi.fn(async () => listed),
      ciphertext: vi.fn(async () => fileCiphertext),
      audio: vi.fn(async () => new Uint8Array()),
      save: vi.fn(),
      ...overrides,
    };
  }

  function Harness({ message, reader, f }: { message: MessageView; reader: Reader | null; f: SealedFiles }) {
    const [client] = useState(createTestQueryClient);
    const opened = useOpenedMessage(message, reader);
    return (
      <QueryWrapper client={client}>
        <EncryptedMessageBody message={message} opened={opened} unlockPrompt={<p>Locked prompt</p>} files={f} />
      </QueryWrapper>
    );
  }

  const message = (overrides: Partial<MessageView> = {}) => messageView({ content: '', use_e2ee: true, content_encrypted: sealed, ...overrides });

  it('opens text and files locally with the right key', async () => {
    const f = files();
    render(<Harness message={message()} reader={{ kid: ME, privateKey: mine.privateKey }} f={f} />);
    expect((await screen.findByText(/blue box/)).textContent).toBe('The keys are in the blue box.\nLove, A.');
    fireEvent.click(await screen.findByRole('button', { name: 'Download notes.txt' }));
    await waitFor(() => expect(f.save).toHaveBeenCalled());
    const [bytes, name, type] = vi.mocked(f.save).mock.calls[0]!;
    expect([utf8Decode(bytes), name, type]).toEqual([FILE_TEXT, 'notes.txt', 'text/plain']);
  });

  it('shows the unlock prompt while locked', () => {
    render(<Harness message={message()} reader={null} f={files()} />);
    expect(screen.getByText('Locked prompt')).toBeTruthy();
  });

  it('says "encrypted for another key" for a wrong private key, never garbage', async () => {
    render(<Harness message={message()} reader={{ kid: ME, privateKey: other.privateKey }} f={files()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(T.wrongKey);
    expect(T.wrongKey.startsWith('This message is encrypted for another key')).toBe(true);
    expect(screen.queryByText(/blue box/)).toBeNull();
  });

  it('says it was not sealed for this account when there is no wrap for the reader', async () => {
    render(<Harness message={message()} reader={{ kid: OTHER, privateKey: mine.privateKey }} f={files()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(T.notForYou);
  });

  it('refuses altered content', async () => {
    const env = JSON.parse(sealed);
    const ct = env.ct as string;
    env.ct = (ct[0] === 'A' ? 'B' : 'A') + ct.slice(1);
    render(<Harness message={message({ content_encrypted: JSON.stringify(env) })} reader={{ kid: ME, privateKey: mine.privateKey }} f={files()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(T.tampered);
  });

  it('refuses an altered attachment with a clear message and saves nothing', async () => {
    const bad = new Uint8Array(fileCiphertext);
    bad[0]! ^= 1;
    const f = files({ ciphertext: vi.fn(async () => bad) });
    render(<Harness message={message()} reader={{ kid: ME, privateKey: mine.privateKey }} f={f} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download notes.txt' }));
    expect(await screen.findByText(T.attachmentFailed)).toBeTruthy();
    expect(f.save).not.toHaveBeenCalled();
  });
});

describe('PasswordSection', () => {
  it('re-wraps the private key under the new password and sends it with the change', async () => {
    const changePassword = vi.fn(async (_input: unknown) => ({ ok: true }));
    render(<PasswordSection mine={async () => view(bundle)} changePassword={changePassword} />);
    fireEvent.change(screen.getByLabelText(T.currentPassword), { target: { value: PASSWORD } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'A-new-long-password-9' } });
    fireEvent.change(screen.getByLabelText(T.confirmPassword), { target: { value: 'A-new-long-password-9' } });
    fireEvent.click(screen.getByRole('button', { name: T.changePassword }));
    await waitFor(() => expect(changePassword).toHaveBeenCalledTimes(1));
    const input = changePassword.mock.calls[0]![0] as { current_password: string; new_password: string; password_wrap: unknown };
    expect(input.current_password).toBe(PASSWORD);
    expect(input.new_password).toBe('A-new-long-password-9');
    await unwrapPrivateKey(input.password_wrap, { password: 'A-new-long-password-9' });
    await expect(unwrapPrivateKey(input.password_wrap, { password: PASSWORD })).rejects.toMatchObject({ code: 'wrong-key' });
  });

  it('catches a wrong current password locally, without calling the server', async () => {
    const changePassword = vi.fn(async () => ({ ok: true }));
    render(<PasswordSection mine={async () => view(bundle)} changePassword={changePassword} />);
    fireEvent.change(screen.getByLabelText(T.currentPassword), { target: { value: 'wrong-password-123' } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'A-new-long-password-9' } });
    fireEvent.change(screen.getByLabelText(T.confirmPassword), { target: { value: 'A-new-long-password-9' } });
    fireEvent.click(screen.getByRole('button', { name: T.changePassword }));
    expect(await screen.findByText(T.wrongCurrentPassword)).toBeTruthy();
    expect(changePassword).not.toHaveBeenCalled();
  });
});

describe('ResetPasswordFlow', () => {
  const NEW = 'A-new-long-password-9';
  const inspection = () => ({ email: 'me@example.test', has_keys: true, recovery_wrap: bundle.bundle.recovery_wrap });

  function renderFlow(api: ResetApi, onReset = vi.fn()) {
    renderWithRouter(() => <ResetPasswordFlow token="tok" api={api} onReset={onReset} />);
    return onReset;
  }

  async function setPassword() {
    fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: NEW } });
    fireEvent.change(screen.getByLabelText(T.confirmPassword), { target: { value: NEW } });
    fireEvent.click(screen.getByRole('button', { name: T.resetSubmit }));
  }

  it('with the recovery key: checks it locally, then sends only the re-wrapped password_wrap', async () => {
    const confirm = vi.fn(async (_input: unknown) => ({ ok: true }));
    const onReset = renderFlow({ inspect: async () => inspection(), confirm });
    const box = await screen.findByLabelText(/^Recovery key/);
    fireEvent.change(box, { target: { value: 'not a key' } });
    fireEvent.click(screen.getByRole('button', { name: T.recoveryKeyCheck }));
    expect(await screen.findByText(/^This is not a recovery key/)).toBeTruthy();
    expect(screen.queryByLabelText(/^New password/)).toBeNull();

    fireEvent.change(box, { target: { value: bundle.recoveryKey.toLowerCase().replace(/-/g, ' ') } });
    fireEvent.click(screen.getByRole('button', { name: T.recoveryKeyCheck }));
    expect(await screen.findByText(T.recoveryKeyAccepted)).toBeTruthy();
    await setPassword();
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const input = confirm.mock.calls[0]![0] as { token: string; new_password: string; key_bundle: Record<string, unknown> };
    expect(Object.keys(input.key_bundle)).toEqual(['password_wrap']);
    expect(JSON.stringify(input)).not.toContain(bundle.recoveryKey.replace(/-/g, '').slice(0, 12));
    await unwrapPrivateKey(input.key_bundle.password_wrap, { password: NEW });
    expect(onReset).toHaveBeenCalledWith({ email: 'me@example.test', password: NEW, newRecoveryKey: null });
  });

  it('a wrong recovery key is refused before anything is sent', async () => {
    const other = await createKeyBundle(PASSWORD, FAST);
    const confirm = vi.fn();
    renderFlow({ inspect: async () => inspection(), confirm });
    fireEvent.change(await screen.findByLabelText(/^Recovery key/), { target: { value: other.recoveryKey } });
    fireEvent.click(screen.getByRole('button', { name: T.recoveryKeyCheck }));
    expect(await screen.findByText(T.recoveryKeyWrong)).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('without it: a plain warning and a tick, then a whole new bundle whose recovery key is handed on', async () => {
    const confirm = vi.fn(async (_input: unknown) => ({ ok: true }));
    const onReset = renderFlow({ inspect: async () => inspection(), confirm });
    fireEvent.click(await screen.findByRole('button', { name: T.noRecoveryKey }));
    expect(screen.getByText(T.noRecoveryWarning)).toBeTruthy();
    await setPassword();
    expect(await screen.findByText(T.noRecoveryMustConfirm)).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByLabelText(T.noRecoveryConfirm));
    fireEvent.click(screen.getByRole('button', { name: T.resetSubmit }));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    const input = confirm.mock.calls[0]![0] as { key_bundle: { public_key: unknown; password_wrap: unknown; recovery_wrap: { ct: string } } };
    expect(Object.keys(input.key_bundle).sort()).toEqual(['password_wrap', 'public_key', 'recovery_wrap']);
    expect(input.key_bundle.public_key).not.toEqual(bundle.bundle.public_key);
    await waitFor(() => expect(onReset).toHaveBeenCalledTimes(1));
    const result = onReset.mock.calls[0]![0] as { newRecoveryKey: { recoveryKey: string; recoveryCt: string } };
    await unwrapPrivateKey(input.key_bundle.recovery_wrap, { recoveryKey: result.newRecoveryKey.recoveryKey });
    expect(result.newRecoveryKey.recoveryCt).toBe(input.key_bundle.recovery_wrap.ct);
  });

  it('without keys: just the new password', async () => {
    const confirm = vi.fn(async () => ({ ok: true }));
    renderFlow({ inspect: async () => ({ email: 'me@example.test', has_keys: false, recovery_wrap: null }), confirm });
    await setPassword();
    await waitFor(() => expect(confirm).toHaveBeenCalledWith({ token: 'tok', new_password: NEW }));
    expect(await screen.findByText(T.resetDone)).toBeTruthy();
  });

  it('an invalid link says so and offers a new one', async () => {
    const error = Object.assign(new Error('x'), {
      data: { httpStatus: 400, detail: 'This password reset link is invalid, has expired or was already used. Ask for a new one.' },
    });
    renderWithRouter(() => <ResetPasswordFlow token="tok" api={{ inspect: async () => Promise.reject(error), confirm: vi.fn() }} onReset={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/invalid, has expired/);
    expect(screen.getByRole('link', { name: T.resetAskAgain }).getAttribute('href')).toBe('/forgot-password');
  });

  it('reads the key out of the downloaded .txt', () => {
    const text = recoveryKeyFileText('me@example.test', bundle.recoveryKey);
    expect(extractRecoveryKey(text)).toBe(bundle.recoveryKey);
    expect(extractRecoveryKey('  abcd ')).toBe('abcd');
    expect(bytesToBase64url(new Uint8Array([1]))).toBe('AQ');
  });
});

describe('multipartBody', () => {
  it('is a multipart/form-data body the platform parses back to the same fields and bytes', async () => {
    const bytes = new Uint8Array([0, 1, 2, 13, 10, 45, 45, 255]);
    const { body, contentType } = multipartBody(
      { message_id: ME, iv: 'AAECAwQFBgcICQoL', name: 'Brief "für" dich.txt' },
      { field: 'file', filename: 'encrypted.bin', bytes },
    );
    const form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
    expect(form.get('message_id')).toBe(ME);
    expect(form.get('iv')).toBe('AAECAwQFBgcICQoL');
    expect(form.get('name')).toBe('Brief "für" dich.txt');
    const file = form.get('file') as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });
});
