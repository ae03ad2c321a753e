import type { KeyBundleView, PublicKeyView } from '@afterword/worker/contracts/e2ee';
import type { TVaultAssignInput, VaultItemView } from '@afterword/worker/contracts/vault';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { base64ToBytes, decryptFile, exportPublicJwk, generateKeyPair, openEnvelope, utf8Decode, utf8Encode } from '../../crypto';
import { HttpError } from '../../lib/api-error';
import { setToken } from '../../lib/session';
import type { VaultDeps } from './save-vault-item';
import { T } from './texts';
import { uploadVaultFile } from './vault-api';
import { VaultForm } from './vault-form';
import { parseMultipart } from '../../test-utils/multipart';

const OWNER = '11111111-2222-4333-8444-555555555555';
const RECIPIENT = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
/** A user who never set up encryption keys. */
const OUTSIDER = '99999999-8888-4777-8666-555555555555';
const ASSET_ID = 'a55e7000-0000-4000-8000-000000000001';
const SECRET = 'The safe code is 4-8-15-16 marker-vault';

let ownerKeys: CryptoKeyPair;
let recipientKeys: CryptoKeyPair;
let ownerBundle: KeyBundleView;
let recipientView: PublicKeyView;

beforeAll(async () => {
  ownerKeys = await generateKeyPair();
  recipientKeys = await generateKeyPair();
  // Sealing reads only the public keys; the wraps are never touched here.
  ownerBundle = { public_key: await exportPublicJwk(ownerKeys.publicKey), created_at: '2026-01-01T00:00:00.000Z' } as KeyBundleView;
  recipientView = { user_id: RECIPIENT, public_key: await exportPublicJwk(recipientKeys.publicKey) };
});

interface SentCreate {
  authorization: string | null;
  body: Uint8Array;
  form: FormData;
}

/** POST /api/vault/create behind fetch: records each request's bytes and its parsed multipart form. */
function fakeCreateEndpoint() {
  const sent: SentCreate[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    expect(String(url)).toBe('/api/vault/create');
    const headers = new Headers(init!.headers);
    const body = init!.body as Uint8Array<ArrayBuffer>;
    // Read byte for byte (test-utils/multipart.ts): the test environment's own parser loses a file beginning with a newline.
    const form = parseMultipart(body, headers.get('content-type')!);
    sent.push({ authorization: headers.get('authorization'), body, form });
    return new Response(JSON.stringify({ asset_id: ASSET_ID, size: body.length, name: 'x', iv: '', legal_note: null, assigned: false, created_at: '' }), {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, sent };
}

function ownerDeps(assign = vi.fn(async (_input: TVaultAssignInput) => ({ id: 'v1' }) as VaultItemView)): VaultDeps & { assign: typeof assign } {
  return {
    keys: {
      whoami: vi.fn(async () => ({ id: OWNER, email: 'owner@example.test' })),
      mine: vi.fn(async () => ownerBundle),
      publicKeyOf: vi.fn(async (id: string) =>
        id.toLowerCase() === RECIPIENT ? recipientView : id === OWNER ? { user_id: OWNER, public_key: ownerBundle.public_key } : null,
      ),
    },
    upload: uploadVaultFile,
    assign,
  };
}

const toasts = () => toastStore.getSnapshot().map((t) => [t.kind, t.message]);
const submit = () => fireEvent.click(screen.getByRole('button', { name: /^(Save to vault|Encrypting and saving…)$/ }));
const secretFile = () => new File([utf8Encode(SECRET)], 'safe-code.txt', { type: 'text/plain' });

function chooseFile(file = secretFile()) {
  fireEvent.change(screen.getByLabelText(/^File/), { target: { files: [file] } });
  return file;
}

/** A complete form: the file, the recipient, a birthday condition and the consent. */
function fillForRecipient({ recipient = RECIPIENT, birthday = '05-14' } = {}) {
  chooseFile();
  fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: recipient } });
  fireEvent.change(screen.getByLabelText(/^Recipient's birthday/), { target: { value: birthday } });
  fireEvent.click(screen.getByLabelText(T.consentLabel));
}

describe('the Vault form, for the owner', () => {
  beforeEach(() => setToken('owner-session'));
  afterEach(() => {
    act(() => toastStore.reset());
    vi.unstubAllGlobals();
  });

  it('refuses without a file and without consent, and sends nothing', async () => {
    const { fetch } = fakeCreateEndpoint();
    const deps = ownerDeps();
    render(<VaultForm deps={deps} />);
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    fireEvent.change(screen.getByLabelText(/^Recipient's birthday/), { target: { value: '05-14' } });
    submit();
    expect(await screen.findByText(T.fileRequired)).toBeTruthy();
    expect(screen.getByText(T.consentRequired)).toBeTruthy();
    expect(screen.getByLabelText(/^File/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(T.consentLabel).getAttribute('aria-invalid')).toBe('true');

    // With a file but still no consent: refused again.
    chooseFile();
    submit();
    await waitFor(() => expect(screen.queryByText(T.fileRequired)).toBeNull());
    expect(screen.getByText(T.consentRequired)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    expect(deps.assign).not.toHaveBeenCalled();
    expect(deps.keys.publicKeyOf).not.toHaveBeenCalled();
  });

  it('uploads only ciphertext and an envelope that opens, for the recipient and the owner, to the key that decrypts the upload', async () => {
    const { sent } = fakeCreateEndpoint();
    const deps = ownerDeps();
    render(<VaultForm deps={deps} />);
    fillForRecipient();
    fireEvent.change(screen.getByLabelText(/^Legal note/), { target: { value: 'Clause 4 of my will' } });
    submit();
    await waitFor(() => expect(deps.assign).toHaveBeenCalledTimes(1));

    expect(sent).toHaveLength(1);
    const [{ authorization, body, form }] = sent as [SentCreate];
    expect(authorization).toBe('Bearer owner-session');
    // Nothing of the file in clear anywhere in the request.
    expect(new TextDecoder().decode(body)).not.toContain('marker-vault');
    expect(form.get('consent')).toBe('true');
    expect(form.get('name')).toBe('safe-code.txt');
    expect(form.get('legal_note')).toBe('Clause 4 of my will');
    const uploaded = new Uint8Array(await (form.get('file') as Blob).arrayBuffer());
    expect(uploaded.length).toBe(utf8Encode(SECRET).length + 16);

    const envelope = form.get('envelope') as string;
    expect(envelope).not.toContain('marker-vault');
    expect(JSON.parse(envelope).recipients.map((r: { kid: string }) => r.kid)).toEqual([RECIPIENT, OWNER]);
    for (const [kid, privateKey] of [
      [RECIPIENT, recipientKeys.privateKey],
      [OWNER, ownerKeys.privateKey],
    ] as const) {
      const { payload } = await openEnvelope(envelope, { kid, privateKey });
      expect(payload.text).toBe('');
      const [entry] = payload.attachments!;
      expect(entry).toMatchObject({ name: 'safe-code.txt', type: 'text/plain', size: utf8Encode(SECRET).length });
      // The IV sent beside the file is the one sealed with its key.
      expect(base64ToBytes(form.get('iv') as string)).toHaveLength(12);
      expect(utf8Decode(await decryptFile(entry!.key, base64ToBytes(form.get('iv') as string), uploaded))).toBe(SECRET);
    }

    expect(deps.assign).toHaveBeenCalledWith({
      asset_id: ASSET_ID,
      recipient_user_id: RECIPIENT,
      condition_type: 'recipient_birthday',
      condition_value: '05-14',
      every_year: false,
    });
    expect(toasts()).toEqual([['success', T.saved]]);
    // Cleared for the next file.
    expect((screen.getByLabelText(/^Recipient User ID/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(T.consentLabel) as HTMLInputElement).checked).toBe(false);
  });

  it('sends a birthday typed as a full date as month-day only, every year when ticked', async () => {
    fakeCreateEndpoint();
    const deps = ownerDeps();
    render(<VaultForm deps={deps} />);
    fillForRecipient({ birthday: '1990-05-14' });
    fireEvent.click(screen.getByLabelText(T.everyYear));
    submit();
    await waitFor(() => expect(deps.assign).toHaveBeenCalledTimes(1));
    expect(deps.assign.mock.calls[0]![0]).toMatchObject({ condition_type: 'recipient_birthday', condition_value: '05-14', every_year: true });
  });

  it('refuses a birthday that is not a month-day or a date before anything is sent', async () => {
    const { fetch } = fakeCreateEndpoint();
    render(<VaultForm deps={ownerDeps()} />);
    fillForRecipient({ birthday: '14 May' });
    submit();
    expect(await screen.findByText(T.birthdayInvalid)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends an exact date in the future with its time zone, and refuses one in the past', async () => {
    const { fetch } = fakeCreateEndpoint();
    const deps = ownerDeps();
    render(<VaultForm deps={deps} />);
    fillForRecipient();
    fireEvent.change(screen.getByLabelText(/^Condition/), { target: { value: 'exact_date' } });
    fireEvent.change(screen.getByLabelText(/^Date and time/), { target: { value: '2001-01-01T09:00' } });
    submit();
    expect(await screen.findByText(T.exactPast)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/^Date and time/), { target: { value: '2099-05-14T09:30' } });
    submit();
    await waitFor(() => expect(deps.assign).toHaveBeenCalledTimes(1));
    const input = deps.assign.mock.calls[0]![0];
    expect(input).toMatchObject({ condition_type: 'exact_date', every_year: false });
    expect(input.condition_value).toMatch(/^2099-05-14T09:30:00[+-]\d{2}:\d{2}$/);
  });

  it('sends no value for "After my death is confirmed"', async () => {
    fakeCreateEndpoint();
    const deps = ownerDeps();
    render(<VaultForm deps={deps} />);
    fillForRecipient();
    fireEvent.change(screen.getByLabelText(/^Condition/), { target: { value: 'death_flag' } });
    expect(screen.queryByLabelText(/^Recipient's birthday/)).toBeNull();
    expect(screen.getByText(T.deathNote)).toBeTruthy();
    submit();
    await waitFor(() => expect(deps.assign).toHaveBeenCalledTimes(1));
    expect(deps.assign.mock.calls[0]![0]).toMatchObject({ condition_type: 'death_flag', condition_value: null, every_year: false });
  });

  it("shows the server's detail when assign fails, keeps the form, and a retry assigns the file already uploaded", async () => {
    const { fetch } = fakeCreateEndpoint();
    const assign = vi.fn(async (_input: TVaultAssignInput): Promise<VaultItemView> => {
      // Shaped as the tRPC client throws it (worker/src/trpc/init.ts errorFormatter).
      throw { data: { httpStatus: 409, detail: 'This file is already given to someone: upload it again to give it to another person' } };
    });
    render(<VaultForm deps={ownerDeps(assign)} />);
    fillForRecipient();
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('This file is already given to someone: upload it again to give it to another person');
    expect(toasts()).toEqual([['error', T.saveFailed]]);
    expect((screen.getByLabelText(/^Recipient User ID/) as HTMLInputElement).value).toBe(RECIPIENT);
    expect((screen.getByLabelText(T.consentLabel) as HTMLInputElement).checked).toBe(true);

    assign.mockImplementationOnce(async () => {
      throw new HttpError(422, { detail: [{ loc: ['body', 'condition_value'], msg: 'condition_value must be a month-day (MM-DD)', type: 'x' }] });
    });
    submit();
    expect(await screen.findByText('Date must be a month-day (MM-DD)')).toBeTruthy();
    expect(screen.getByLabelText(/^Recipient's birthday/).getAttribute('aria-invalid')).toBe('true');

    assign.mockImplementationOnce(async () => ({ id: 'v1' }) as VaultItemView);
    submit();
    await waitFor(() => expect(toasts().at(-1)).toEqual(['success', T.saved]));
    expect(assign).toHaveBeenCalledTimes(3);
    expect(new Set(assign.mock.calls.map(([input]) => input.asset_id))).toEqual(new Set([ASSET_ID]));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('refuses, under the recipient, a recipient who has no encryption keys, and uploads nothing', async () => {
    const { fetch } = fakeCreateEndpoint();
    render(<VaultForm deps={ownerDeps()} />);
    fillForRecipient({ recipient: OUTSIDER });
    submit();
    expect(await screen.findByText(T.recipientNoKeys)).toBeTruthy();
    expect(T.recipientNoKeys).toContain('The recipient has not set up encryption keys yet');
    expect(screen.getByLabelText(/^Recipient User ID/).getAttribute('aria-invalid')).toBe('true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses the owner as their own recipient, and an owner without keys, before uploading', async () => {
    const { fetch } = fakeCreateEndpoint();
    const deps = ownerDeps();
    render(<VaultForm deps={deps} />);
    fillForRecipient({ recipient: OWNER });
    submit();
    expect(await screen.findByText(T.recipientIsYou)).toBeTruthy();

    deps.keys.mine = vi.fn(async () => null);
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe(T.ownerNoKeys);
    expect(fetch).not.toHaveBeenCalled();
  });
});
