import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { bytesToBase64url, generateContentKey, sealAudio, utf8Encode } from '../../crypto';
import { renderWithQuery } from '../../test-utils/query-client';
import { messageView } from '../messages/test-fixtures';
import { EncryptedMessageBody, type SealedFiles } from './encrypted-message';
import { T } from './texts';
import type { OpenedMessage } from './use-opened-message';

const MESSAGE_ID = 'a1b2c3d4-0000-4000-8000-000000000009';
const SPOKEN = 'pretend this is webm';

/** An opened message whose payload names a sealed recording, and the recording's ciphertext. */
async function openedWithAudio() {
  const contentKey = await generateContentKey();
  const sealed = await sealAudio(contentKey, utf8Encode(SPOKEN));
  const opened: OpenedMessage = {
    state: 'open',
    contentKey,
    payload: { text: 'Listen to this.', audio: { iv: bytesToBase64url(sealed.iv), type: 'audio/ogg' } },
  };
  return { opened, ciphertext: sealed.ciphertext };
}

function files(audio: SealedFiles['audio']): SealedFiles {
  return { listAttachments: vi.fn(async () => []), ciphertext: vi.fn(), audio: vi.fn(audio), save: vi.fn() };
}

const message = messageView({ id: MESSAGE_ID, content: '', use_e2ee: true, content_encrypted: '{}', has_audio: true, audio_type: 'audio/ogg' });

describe('EncryptedMessageBody: the sealed recording', () => {
  it('fetches and decrypts it through a query, plays it from an object URL, and forgets both when it leaves', async () => {
    const { opened, ciphertext } = await openedWithAudio();
    const f = files(async () => ciphertext);
    const made: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      made.push(blob as Blob);
      return 'blob:sealed-audio';
    });
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { queryClient, unmount } = renderWithQuery(<EncryptedMessageBody message={message} opened={opened} unlockPrompt={null} files={f} />);

    const audio = await screen.findByLabelText(T.audioTitle, { selector: 'audio' });
    expect(audio.getAttribute('src')).toBe('blob:sealed-audio');
    expect(vi.mocked(f.audio).mock.calls.map((c) => c[0])).toEqual([MESSAGE_ID]);
    expect(made).toHaveLength(1);
    expect([await made[0]!.text(), made[0]!.type]).toEqual([SPOKEN, 'audio/ogg']);

    unmount();
    expect(revoked).toHaveBeenCalledWith('blob:sealed-audio');
    // The decrypted bytes do not stay in the cache once nothing shows them.
    await waitFor(() => expect(queryClient.getQueryCache().findAll({ queryKey: ['sealed-audio'] })).toHaveLength(0));
  });

  it('says the recording could not be opened when its bytes were altered, and makes no URL', async () => {
    const { opened, ciphertext } = await openedWithAudio();
    const bad = new Uint8Array(ciphertext);
    bad[0]! ^= 1;
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const created = vi.spyOn(URL, 'createObjectURL');
    renderWithQuery(<EncryptedMessageBody message={message} opened={opened} unlockPrompt={null} files={files(async () => bad)} />);
    expect(await screen.findByText(T.audioFailed)).toBeTruthy();
    expect(created).not.toHaveBeenCalled();
  });

  it('says the recording could not be loaded when the download fails', async () => {
    const { opened } = await openedWithAudio();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderWithQuery(
      <EncryptedMessageBody
        message={message}
        opened={opened}
        unlockPrompt={null}
        files={files(async () => Promise.reject(new TypeError('Failed to fetch')))}
      />,
    );
    expect(await screen.findByText(T.audioFailed)).toBeTruthy();
  });
});
