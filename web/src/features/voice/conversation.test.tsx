import type { PersonaReplyView } from '@afterword/worker/contracts/persona-chat';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHAT_T } from './chat-texts';
import { Conversation } from './conversation';

const realUrl = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
afterEach(() => {
  vi.restoreAllMocks();
  URL.createObjectURL = realUrl.create;
  URL.revokeObjectURL = realUrl.revoke;
});

const reply = (over: Partial<PersonaReplyView> = {}): PersonaReplyView => ({
  text: 'In my own words: Be kind.',
  audio_base64: 'UklGRg==',
  audio_content_type: 'audio/wav',
  source: 'own_words',
  based_on: ['Answer to “What advice would you give the people you love?”'],
  session_id: 's1',
  audio_seconds: 1.2,
  voice_seconds_left: 298.8,
  notice: null,
  engine: 'local',
  ...over,
});

describe('a conversation with a persona', () => {
  it('sends nothing when the question is empty or blank', () => {
    const ask = vi.fn();
    render(<Conversation ask={ask} label="Conversation" personaName="Ada:" />);
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.send }));
    fireEvent.change(screen.getByLabelText(CHAT_T.askLabel), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.send }));
    expect(ask).not.toHaveBeenCalled();
    expect(screen.getByText(CHAT_T.empty)).toBeTruthy();
  });

  it('shows the reply with where its words come from, plays its speech, and keeps the session for the next turn', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const made: Blob[] = [];
    URL.createObjectURL = (b: Blob | MediaSource) => {
      made.push(b as Blob);
      return `blob:reply-${made.length}`;
    };
    URL.revokeObjectURL = () => {};
    const ask = vi.fn(async (_p: string, _s: string | undefined) => reply());
    render(<Conversation ask={ask} label="Conversation" personaName="Ada:" />);
    fireEvent.change(screen.getByLabelText(CHAT_T.askLabel), { target: { value: 'Any advice?' } });
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.send }));
    await screen.findByText('In my own words: Be kind.');
    expect(screen.getByText('From their own words: Answer to “What advice would you give the people you love?”')).toBeTruthy();
    const audio = screen.getByLabelText(CHAT_T.replyAudio) as HTMLAudioElement;
    expect(audio.src).toBe('blob:reply-1');
    expect(made[0]!.type).toBe('audio/wav');
    expect(new TextDecoder().decode(await made[0]!.arrayBuffer())).toBe('RIFF');
    expect(play).toHaveBeenCalled();
    expect((screen.getByLabelText(CHAT_T.askLabel) as HTMLInputElement).value).toBe('');

    ask.mockResolvedValueOnce(reply({ text: 'I did not leave an answer to that.', source: 'no_match', based_on: [], audio_base64: '', notice: 'Text only.' }));
    fireEvent.change(screen.getByLabelText(CHAT_T.askLabel), { target: { value: 'Football?' } });
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.send }));
    await screen.findByText('Not from their own words: nothing they left answers this.');
    expect(screen.getByText('Text only.')).toBeTruthy();
    await waitFor(() => expect(ask).toHaveBeenLastCalledWith('Football?', 's1'));
  });

  it('plays an MP3 reply (Workers AI speech) as an MP3', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const made: Blob[] = [];
    URL.createObjectURL = (b: Blob | MediaSource) => {
      made.push(b as Blob);
      return 'blob:reply';
    };
    URL.revokeObjectURL = () => {};
    render(<Conversation ask={async () => reply({ audio_base64: 'SUQz', audio_content_type: 'audio/mpeg' })} label="Conversation" personaName="Ada:" />);
    fireEvent.change(screen.getByLabelText(CHAT_T.askLabel), { target: { value: 'Any advice?' } });
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.send }));
    await screen.findByText('In my own words: Be kind.');
    expect(made[0]!.type).toBe('audio/mpeg');
  });
});

/** A microphone and MediaRecorder that record one chunk of bytes, as a browser without speech recognition has. */
function fakeMicrophone() {
  class FakeRecorder {
    static isTypeSupported = () => true;
    state = 'inactive';
    ondataavailable: ((e: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    start() {
      this.state = 'recording';
    }
    stop() {
      this.state = 'inactive';
      this.ondataavailable?.({ data: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])], { type: 'audio/webm' }) });
      this.onstop?.();
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: async () => ({ getTracks: () => [{ stop() {} }] }) },
  });
  URL.createObjectURL = () => 'blob:question';
  URL.revokeObjectURL = () => {};
}

describe('speaking a question in a browser without speech recognition', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the recording to the server’s speech to text, and its words land in the box to check and send', async () => {
    fakeMicrophone();
    const transcribe = vi.fn(async (_recording: Blob) => 'Do you have any advice?');
    render(<Conversation ask={async () => reply()} label="Conversation" personaName="Ada:" transcribe={transcribe} />);
    expect(screen.getByText(CHAT_T.serverHears)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.speak }));
    fireEvent.click(await screen.findByRole('button', { name: CHAT_T.stopSpeaking }));
    await waitFor(() => expect((screen.getByLabelText(CHAT_T.askLabel) as HTMLInputElement).value).toBe('Do you have any advice?'));
    expect(transcribe.mock.calls[0]![0].type).toBe('audio/webm');
    expect(screen.getByText(CHAT_T.heard('Do you have any advice?'))).toBeTruthy();
  });

  it('asks to type the question when the server has no speech to text', async () => {
    fakeMicrophone();
    const transcribe = vi.fn(async (_recording: Blob) => null);
    render(<Conversation ask={async () => reply()} label="Conversation" personaName="Ada:" transcribe={transcribe} />);
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.speak }));
    fireEvent.click(await screen.findByRole('button', { name: CHAT_T.stopSpeaking }));
    expect(await screen.findByText(CHAT_T.noRecognition)).toBeTruthy();
    expect((screen.getByLabelText(CHAT_T.askLabel) as HTMLInputElement).value).toBe('');
    // It is not asked again.
    fireEvent.click(screen.getByRole('button', { name: CHAT_T.speak }));
    fireEvent.click(await screen.findByRole('button', { name: CHAT_T.stopSpeaking }));
    await screen.findByText(CHAT_T.noRecognition);
    expect(transcribe).toHaveBeenCalledTimes(1);
  });
});
