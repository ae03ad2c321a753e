import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { bytesToBase64 } from '../../crypto';
import { formatDuration } from './format';

/** docs/product.md "Voice, persona and chat import": recordings are audio/webm. */
export const RECORDING_TYPE = 'audio/webm';

export interface Recording {
  blob: Blob;
  /** An object URL for the preview; revoked when discarded or replaced. */
  url: string;
  seconds: number;
}

/** The recording as the create call carries it: base64 without a data: prefix. */
export async function blobToBase64(blob: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
}

interface VoiceRecorderProps {
  value: Recording | null;
  onChange: (recording: Recording | null) => void;
  error?: string | null;
  disabled?: boolean;
  /** The fieldset's legend (the message form's by default). */
  legend?: string;
}

/** Record, stop, preview and discard a voice message with the microphone (MediaRecorder). */
export function VoiceRecorder({ value, onChange, error, disabled, legend = 'Voice recording (optional)' }: VoiceRecorderProps) {
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const startedAt = useRef(0);
  const latest = useRef(value);
  latest.current = value;

  const supported = typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia) && typeof MediaRecorder !== 'undefined';

  useEffect(() => {
    if (!recording) return;
    const id = setInterval(() => setElapsed((Date.now() - startedAt.current) / 1000), 250);
    return () => clearInterval(id);
  }, [recording]);

  // Leaving the page stops the microphone and frees the preview.
  useEffect(
    () => () => {
      for (const t of streamRef.current?.getTracks() ?? []) t.stop();
      if (recorderRef.current?.state === 'recording') recorderRef.current.stop();
      if (latest.current) URL.revokeObjectURL(latest.current.url);
    },
    [],
  );

  async function start() {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const mimeType = MediaRecorder.isTypeSupported?.(RECORDING_TYPE) ? RECORDING_TYPE : undefined;
      const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => {
        if (e.data.size) chunks.push(e.data);
      };
      recorder.onstop = () => {
        for (const t of stream.getTracks()) t.stop();
        streamRef.current = null;
        recorderRef.current = null;
        setRecording(false);
        const seconds = (Date.now() - startedAt.current) / 1000;
        const blob = new Blob(chunks, { type: (recorder.mimeType || RECORDING_TYPE).split(';')[0] });
        if (latest.current) URL.revokeObjectURL(latest.current.url);
        onChange({ blob, url: URL.createObjectURL(blob), seconds });
      };
      streamRef.current = stream;
      recorderRef.current = recorder;
      startedAt.current = Date.now();
      setElapsed(0);
      recorder.start(1000);
      setRecording(true);
    } catch (err) {
      // docs/product.md "Feedback and errors": microphone failures are only logged.
      console.error('Could not start recording', err);
      setRecording(false);
    }
  }

  function stop() {
    recorderRef.current?.stop();
  }

  function discard() {
    if (value) URL.revokeObjectURL(value.url);
    onChange(null);
  }

  return (
    <fieldset className="fieldset recorder">
      <legend className="fieldset__legend">{legend}</legend>
      {!supported ? <p className="field__hint">This browser cannot record audio.</p> : null}
      <div className="button-row recorder__controls">
        {recording ? (
          <Button variant="danger" onClick={stop}>
            Stop recording
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => void start()} disabled={!supported || disabled}>
            {value ? 'Record again' : 'Record'}
          </Button>
        )}
        {value && !recording ? (
          <Button variant="ghost" onClick={discard} disabled={disabled}>
            Discard recording
          </Button>
        ) : null}
        {recording ? (
          <span className="recorder__status">
            <span className="recorder__dot" aria-hidden="true" /> Recording <span className="recorder__time">{formatDuration(elapsed)}</span>
          </span>
        ) : null}
      </div>
      {value && !recording ? (
        <div className="recorder__preview">
          {/* biome-ignore lint/a11y/useMediaCaption: the preview of what the user just recorded: no caption or transcript exists for it */}
          <audio controls src={value.url} aria-label="Preview of your recording" />
          <p className="field__hint">Length {formatDuration(value.seconds)}</p>
        </div>
      ) : null}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
