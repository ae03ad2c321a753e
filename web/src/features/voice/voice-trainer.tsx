import { secondsMissing, type VoiceSampleView, type VoiceStatus, VOICE_LABEL_MAX } from '@afterword/worker/contracts/voice';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { CheckboxField } from '../../components/checkbox';
import { EmptyState } from '../../components/empty-state';
import { TextField } from '../../components/field';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { type Recording, VoiceRecorder } from '../messages/voice-recorder';
import { ENGINE_LABEL, STATUS_LABEL, T } from './texts';
import { seconds } from './format';
import { uploadVoiceSample } from './voice-api';

/** docs/product.md "Voice, persona and chat import": the training status is polled every second. */
export const TRAINING_POLL_MS = 1000;

/** The one toast of a training: 'in progress' turns into 'complete' (or the failure). */
const TRAINING_TOAST = 'voice-training';

export type UploadSample = (file: Blob, fileName: string, label: string) => Promise<VoiceSampleView>;

/**
 * The Voice Trainer (docs/product.md "Voice, persona and chat import"): consent, recording or several files at
 * once, the samples with the lengths the server measured, and the training with its engine and status. `upload`
 * is the REST call (a test passes its own).
 */
export function VoiceTrainer({ upload = uploadVoiceSample }: { upload?: UploadSample }) {
  const utils = trpc.useUtils();
  const status = trpc.voice.status.useQuery(undefined, {
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? TRAINING_POLL_MS : false),
  });
  const data = status.data;

  // 'AI model training complete' once, when a training this page watched finishes.
  const previous = useRef<VoiceStatus['status'] | undefined>(undefined);
  useEffect(() => {
    const now = data?.status;
    if (previous.current === 'processing' && now === 'complete') toast.success(T.complete, { id: TRAINING_TOAST });
    if (previous.current === 'processing' && now === 'failed') toast.error(data?.error ?? T.failed, { id: TRAINING_TOAST });
    previous.current = now;
  }, [data?.status, data?.error]);

  const refresh = async () => {
    await utils.voice.status.invalidate();
    void utils.attachments.storage.invalidate();
  };

  return (
    <>
      <Card title={T.samplesTitle}>
        <p className="muted">{data?.engine === 'elevenlabs' ? T.clone : T.notAClone}</p>
        <p>
          <strong>{T.engine}:</strong> {data ? ENGINE_LABEL[data.engine] : '…'}
        </p>
        <AddSamples upload={upload} onAdded={refresh} />
        {data ? <SampleList samples={data.samples} onDeleted={refresh} /> : null}
      </Card>
      <Card title={T.trainingTitle}>{data ? <Training status={data} /> : <p className="muted">…</p>}</Card>
    </>
  );
}

function AddSamples({ upload, onAdded }: { upload: UploadSample; onAdded: () => Promise<void> }) {
  const [consent, setConsent] = useState(false);
  const [label, setLabel] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [busy, setBusy] = useState(false);
  const [consentError, setConsentError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const filesId = useId();

  /** Sends each file in turn; a refused one is toasted with the server's reason and the rest go on. */
  async function send(items: { blob: Blob; name: string }[]) {
    if (!consent) {
      setConsentError(T.needConsent);
      return false;
    }
    setBusy(true);
    let added = 0;
    for (const item of items) {
      try {
        await upload(item.blob, item.name, label);
        added += 1;
      } catch (err) {
        toast.error(T.uploadFailed(item.name, readApiError(err).detail ?? 'upload failed'));
      }
    }
    setBusy(false);
    if (added > 0) {
      toast.success(T.uploaded(added));
      await onAdded();
    }
    return added === items.length;
  }

  return (
    <div className="voice-add">
      <CheckboxField
        label={T.consentLabel}
        checked={consent}
        onChange={(e) => {
          setConsent(e.target.checked);
          setConsentError(null);
        }}
        error={consentError}
      />
      <TextField label={T.labelField} hint={T.labelHint} value={label} maxLength={VOICE_LABEL_MAX} onChange={(e) => setLabel(e.target.value)} />
      <div className="field">
        <label className="field__label" htmlFor={filesId}>
          {T.filesField}
        </label>
        <input
          ref={fileInput}
          id={filesId}
          className="input"
          type="file"
          accept="audio/webm,audio/ogg,audio/wav,audio/x-wav,.webm,.ogg,.opus,.wav"
          multiple
          aria-describedby={`${filesId}-hint`}
          onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
        />
        <p className="field__hint" id={`${filesId}-hint`}>
          {T.filesHint}
        </p>
      </div>
      <div className="button-row">
        <Button
          onClick={async () => {
            if (await send(files.map((f) => ({ blob: f, name: f.name })))) {
              setFiles([]);
              if (fileInput.current) fileInput.current.value = '';
            }
          }}
          disabled={files.length === 0 || busy}
        >
          {busy ? T.uploading : T.upload}
        </Button>
      </div>
      <VoiceRecorder value={recording} onChange={setRecording} disabled={busy} legend={T.recordLegend} />
      {recording ? (
        <div className="button-row">
          <Button
            onClick={async () => {
              if (await send([{ blob: recording.blob, name: 'recording.webm' }])) {
                URL.revokeObjectURL(recording.url);
                setRecording(null);
              }
            }}
            disabled={busy}
          >
            {T.saveRecording}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function SampleList({ samples, onDeleted }: { samples: VoiceSampleView[]; onDeleted: () => Promise<void> }) {
  const remove = trpc.voice.deleteSample.useMutation({
    onSuccess: async () => {
      toast.success(T.deleted);
      await onDeleted();
    },
    onError: (error) => void toast.error(readApiError(error).detail ?? 'Could not delete the sample'),
  });
  if (samples.length === 0) return <EmptyState title={T.samplesEmpty}>{T.samplesEmptyHint}</EmptyState>;
  return (
    <ul className="voice-samples" aria-label={T.samplesTitle}>
      {samples.map((s) => (
        <li key={s.id} className="voice-sample" aria-label={s.label}>
          <span className="voice-sample__label">{s.label}</span> <span className="voice-sample__duration">{seconds(s.duration_ms)}</span>{' '}
          <span className="muted">{s.content_type.replace('audio/', '').toUpperCase()}</span>{' '}
          <Button variant="ghost" aria-label={T.deleteSample(s.label)} disabled={remove.isPending} onClick={() => remove.mutate({ id: s.id })}>
            Delete
          </Button>
        </li>
      ))}
    </ul>
  );
}

function Training({ status }: { status: VoiceStatus }) {
  const utils = trpc.useUtils();
  const train = trpc.voice.train.useMutation({
    onSuccess: (next) => {
      toast.loading(T.inProgress, { id: TRAINING_TOAST });
      utils.voice.status.setData(undefined, next);
    },
    onError: (error) => void toast.error(readApiError(error).detail ?? T.failed),
  });
  const missing = secondsMissing(status.seconds_collected);
  const processing = status.status === 'processing';
  const profile = status.profile;
  return (
    <div className="voice-training">
      <p>{T.collected(status.seconds_collected, status.seconds_required)}</p>
      <p>
        <strong>{T.status}:</strong> <span data-testid="voice-status">{STATUS_LABEL[status.status]}</span>
      </p>
      {status.status === 'failed' && status.error ? <p className="field__error">{status.error}</p> : null}
      <Button onClick={() => train.mutate()} disabled={missing > 0 || processing || train.isPending}>
        {missing > 0 ? T.needMore(missing) : T.start}
      </Button>
      {profile ? (
        <dl className="voice-profile">
          <dt>{T.pitch}</dt>
          <dd>{profile.pitch_hz == null ? T.notMeasured : `${profile.pitch_hz} Hz`}</dd>
          <dt>{T.rate}</dt>
          <dd>{profile.syllables_per_second == null ? T.notMeasured : `${profile.syllables_per_second} syllables per second`}</dd>
          <dd className="muted">{T.measuredOn(profile.seconds_analysed, profile.seconds_used, profile.sample_count)}</dd>
        </dl>
      ) : null}
    </div>
  );
}
