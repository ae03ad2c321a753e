import type { PersonaReplyView } from '@afterword/worker/contracts/persona-chat';
import { PERSONA_PROMPT_MAX } from '@afterword/worker/contracts/persona-chat';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { base64ToBytes } from '../../crypto';
import { readApiError } from '../../lib/api-error';
import { RECORDING_TYPE } from '../messages/voice-recorder';
import { CHAT_T } from './chat-texts';

/** docs/product.md "Voice, persona and chat import": speech recognition language. */
export const RECOGNITION_LANG = 'en-US';

export type AskPersona = (prompt: string, sessionId: string | undefined) => Promise<PersonaReplyView>;
/** The server's speech to text of a recorded question; null when the server has none. */
export type TranscribeQuestion = (recording: Blob) => Promise<string | null>;

interface Turn {
  id: number;
  prompt: string;
  reply: PersonaReplyView | null;
  error: string | null;
}

interface RecognitionLike {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal?: boolean }> }) => void) | null;
  onerror: ((e: unknown) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}
type RecognitionCtor = new () => RecognitionLike;

/** The browser's speech recognition, where it has one (Chromium's is prefixed). */
export function speechRecognition(): RecognitionCtor | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** The reply's audio (a WAV, or an MP3 from Workers AI) as a blob: URL of its type (the CSP allows media from blob:, not data:). */
export function audioUrl(b64: string, type: string | null = 'audio/wav'): string {
  return URL.createObjectURL(new Blob([base64ToBytes(b64, 'the reply audio')], { type: type ?? 'audio/wav' }));
}

/**
 * A conversation with a persona (Voice Chat, and Try a conversation on the Voice Trainer): text or the
 * microphone, each reply shown with where its words come from and its speech played. Sending an empty
 * question does nothing. Microphone and recognition failures are only logged
 * (docs/product.md "Voice, persona and chat import").
 */
export function Conversation({
  ask,
  label,
  personaName,
  transcribe,
}: {
  ask: AskPersona;
  label: string;
  personaName: string;
  transcribe?: TranscribeQuestion;
}) {
  const [prompt, setPrompt] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [sending, setSending] = useState(false);
  const session = useRef<string | undefined>(undefined);
  const player = useRef<HTMLAudioElement | null>(null);
  const inputId = useId();
  const next = useRef(0);

  async function send() {
    const text = prompt.trim();
    if (!text || sending) return;
    const id = next.current++;
    setTurns((t) => [...t, { id, prompt: text, reply: null, error: null }]);
    setPrompt('');
    setSending(true);
    try {
      const reply = await ask(text, session.current);
      session.current = reply.session_id;
      setTurns((t) => t.map((x) => (x.id === id ? { ...x, reply } : x)));
      if (reply.audio_base64 && player.current) {
        if (player.current.src.startsWith('blob:')) URL.revokeObjectURL(player.current.src);
        player.current.src = audioUrl(reply.audio_base64, reply.audio_content_type);
        player.current.play().catch((err: unknown) => console.error('Could not play the reply', err));
      }
    } catch (err) {
      const detail = readApiError(err).detail;
      setTurns((t) => t.map((x) => (x.id === id ? { ...x, error: typeof detail === 'string' ? detail : CHAT_T.failed } : x)));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="conversation">
      {turns.length === 0 ? <p className="muted">{CHAT_T.empty}</p> : null}
      <ol className="conversation__turns" aria-label={label} aria-live="polite">
        {turns.map((t) => (
          <li key={t.id} className="conversation__turn">
            <p className="conversation__you">
              <span className="conversation__who">{CHAT_T.you}</span> {t.prompt}
            </p>
            {t.reply ? (
              <div className="conversation__reply">
                <p>
                  <span className="conversation__who">{personaName}</span> {t.reply.text}
                </p>
                <p className="field__hint">{CHAT_T.source(t.reply)}</p>
                {t.reply.notice ? <p className="field__hint">{t.reply.notice}</p> : null}
              </div>
            ) : t.error ? (
              <p className="field__error">{t.error}</p>
            ) : (
              <p className="muted">{CHAT_T.thinking}</p>
            )}
          </li>
        ))}
      </ol>
      {/* biome-ignore lint/a11y/useMediaCaption: the spoken reply; its words are shown above it */}
      <audio ref={player} className="conversation__audio" controls aria-label={CHAT_T.replyAudio} hidden={!turns.some((t) => t.reply?.audio_base64)} />
      <form
        className="conversation__form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label className="field__label" htmlFor={inputId}>
          {CHAT_T.askLabel}
        </label>
        <div className="conversation__row">
          <input id={inputId} className="input" value={prompt} maxLength={PERSONA_PROMPT_MAX} onChange={(e) => setPrompt(e.target.value)} autoComplete="off" />
          <Button type="submit" disabled={sending}>
            {CHAT_T.send}
          </Button>
        </div>
        <Microphone onTranscript={(text) => setPrompt((p) => (p ? `${p} ${text}` : text))} transcribe={transcribe} />
      </form>
    </div>
  );
}

/**
 * Speaking the question: the microphone is recorded as audio/webm
 * (docs/product.md "Voice, persona and chat import") while the browser's speech recognition (en-US), where it
 * has one, turns it into text that lands in the question box to check and send. Without recognition the
 * recording goes to the server's speech to text where it has one (the workers-ai engine); otherwise it is kept
 * to listen back and the page asks to type the question.
 */
function Microphone({ onTranscript, transcribe }: { onTranscript: (text: string) => void; transcribe?: TranscribeQuestion }) {
  const [listening, setListening] = useState(false);
  // Until the server says it has no speech to text (501), a recording without recognition is sent to it.
  const [serverHears, setServerHears] = useState(Boolean(transcribe));
  const [clip, setClip] = useState<string | null>(null);
  const [heard, setHeard] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const recognition = useRef<RecognitionLike | null>(null);
  const Recognition = speechRecognition();
  const canRecord = typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia) && typeof MediaRecorder !== 'undefined';

  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') recorder.current.stop();
      recognition.current?.stop();
    },
    [],
  );
  useEffect(() => () => void (clip && URL.revokeObjectURL(clip)), [clip]);

  async function start() {
    setHeard(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const mimeType = MediaRecorder.isTypeSupported?.(RECORDING_TYPE) ? RECORDING_TYPE : undefined;
      const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => {
        if (e.data.size) chunks.push(e.data);
      };
      rec.onstop = () => {
        for (const t of stream.getTracks()) t.stop();
        const recording = new Blob(chunks, { type: RECORDING_TYPE });
        setClip(URL.createObjectURL(recording));
        setListening(false);
        if (!Recognition && transcribe && serverHears) {
          transcribe(recording)
            .then((text) => {
              if (text === null) setServerHears(false);
              else if (text) {
                setHeard(text);
                onTranscript(text);
              }
            })
            .catch((err: unknown) => console.error('Speech to text failed', err));
        }
      };
      recorder.current = rec;
      rec.start(500);
      setListening(true);
      if (Recognition) {
        const r = new Recognition();
        r.lang = RECOGNITION_LANG;
        r.interimResults = false;
        r.continuous = true;
        r.onresult = (e) => {
          const text = Array.from(e.results)
            .map((res) => res[0]?.transcript ?? '')
            .join(' ')
            .trim();
          if (text) {
            setHeard(text);
            onTranscript(text);
          }
        };
        r.onerror = (err) => console.error('Speech recognition failed', err);
        r.onend = () => {
          recognition.current = null;
        };
        recognition.current = r;
        r.start();
      }
    } catch (err) {
      console.error('Could not start the microphone', err);
      setListening(false);
    }
  }

  function stop() {
    recognition.current?.stop();
    recorder.current?.stop();
  }

  return (
    <div className="conversation__mic">
      {listening ? (
        <Button variant="danger" onClick={stop}>
          {CHAT_T.stopSpeaking}
        </Button>
      ) : (
        <Button variant="secondary" onClick={() => void start()} disabled={!canRecord}>
          {CHAT_T.speak}
        </Button>
      )}
      {listening ? <span className="recorder__status">{CHAT_T.listening}</span> : null}
      {!canRecord ? (
        <p className="field__hint">{CHAT_T.noMicrophone}</p>
      ) : !Recognition ? (
        <p className="field__hint">{transcribe && serverHears ? CHAT_T.serverHears : CHAT_T.noRecognition}</p>
      ) : null}
      {clip && !listening ? (
        <div className="recorder__preview">
          {/* biome-ignore lint/a11y/useMediaCaption: the question the user just spoke; its text is in the box */}
          <audio controls src={clip} aria-label={CHAT_T.yourRecording} />
          {heard ? <p className="field__hint">{CHAT_T.heard(heard)}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
