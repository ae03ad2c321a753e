import type { ChatPersonaView } from '@afterword/worker/contracts/persona-chat';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { CHAT_T } from './chat-texts';
import { VoiceChat } from './voice-chat-page';

afterEach(() => toastStore.reset());

const ada = (over: Partial<ChatPersonaView> = {}): ChatPersonaView => ({
  owner_id: '7d1f3c2a-0000-4000-8000-000000000001',
  name: 'Ada',
  behavior: 'comforting',
  is_own: false,
  is_keeper: false,
  can_talk: true,
  voice_minutes_per_session: 5,
  ...over,
});

describe('Voice Chat', () => {
  it('says there is no persona to talk to before anyone’s release (and before one’s own is set up)', async () => {
    renderWithTrpc(<VoiceChat />, fakeTrpcApi({ 'voice.chatPersonas': () => ok([]) }));
    await screen.findByText(CHAT_T.none);
    expect(screen.queryByLabelText(CHAT_T.askLabel)).toBeNull();
  });

  it('lets a recipient talk to a released persona, says what it is, and retire it for themselves', async () => {
    const calls: unknown[] = [];
    let listed = [ada()];
    const api = fakeTrpcApi({
      'voice.chatPersonas': () => ok(listed),
      'voice.retire': (input) => {
        calls.push(input);
        listed = [];
        return ok({ ok: true });
      },
    });
    renderWithTrpc(<VoiceChat />, api);
    await screen.findByText(CHAT_T.whatItIs('Ada'));
    expect(screen.getByLabelText(CHAT_T.askLabel)).toBeTruthy();
    expect(screen.queryByRole('button', { name: CHAT_T.retireEveryone })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.retireMe }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: CHAT_T.retireMe }));
    await waitFor(() => expect(calls).toEqual([{ id: ada().owner_id, for: 'me' }]));
    await screen.findByText(CHAT_T.none);
  });

  it('shows a keeper who is not a recipient only the way to retire it for everyone', async () => {
    renderWithTrpc(<VoiceChat />, fakeTrpcApi({ 'voice.chatPersonas': () => ok([ada({ is_keeper: true, can_talk: false })]) }));
    await screen.findByText(CHAT_T.keeperOnly);
    expect(screen.queryByLabelText(CHAT_T.askLabel)).toBeNull();
    expect(screen.queryByRole('button', { name: CHAT_T.retireMe })).toBeNull();
    expect(screen.getByRole('button', { name: CHAT_T.retireEveryone })).toBeTruthy();
  });
});
