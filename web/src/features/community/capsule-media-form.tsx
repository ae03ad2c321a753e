import type { TMyCapsule } from '@afterword/worker/contracts/capsules';
import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { uploadCapsuleMedia } from './capsule-media-api';

export type UploadMedia = typeof uploadCapsuleMedia;

const TYPES = [
  { value: 'audio', label: 'Audio (WebM, Ogg or WAV)' },
  { value: 'video', label: 'Video (WebM or MP4)' },
] as const;

/**
 * Adds one audio or video file to a sealed capsule, with optional WebVTT captions (.vtt). The server
 * checks the type from the bytes and the plan's storage; its reason is shown when it refuses.
 */
export function CapsuleMediaForm({
  capsule,
  onAdded,
  upload = uploadCapsuleMedia,
}: {
  capsule: TMyCapsule;
  onAdded: () => Promise<void> | void;
  upload?: UploadMedia;
}) {
  const [type, setType] = useState<'audio' | 'video'>('audio');
  const [file, setFile] = useState<File | null>(null);
  const [captions, setCaptions] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const fileId = useId();
  const captionsId = useId();

  async function send() {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      await upload(capsule.id, file, type, captions ? await captions.text() : null);
      toast.success(type === 'audio' ? 'Recording added' : 'Video added');
      setFile(null);
      setCaptions(null);
      setFormKey((k) => k + 1);
      await onAdded();
    } catch (err) {
      setError(readApiError(err).detail ?? 'The file could not be added');
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="fieldset capsule-media-form" key={formKey}>
      <legend className="fieldset__legend">Add audio or video to “{capsule.title}”</legend>
      <SelectField label="Kind" options={TYPES} value={type} onChange={(e) => setType(e.target.value as 'audio' | 'video')} />
      <div className="field">
        <label className="field__label" htmlFor={fileId}>
          File
        </label>
        <input
          id={fileId}
          className="input"
          type="file"
          accept={type === 'audio' ? 'audio/webm,audio/ogg,audio/wav,.webm,.ogg,.opus,.wav' : 'video/webm,video/mp4,.webm,.mp4'}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={captionsId}>
          Captions (optional, WebVTT .vtt)
        </label>
        <input id={captionsId} className="input" type="file" accept="text/vtt,.vtt" onChange={(e) => setCaptions(e.target.files?.[0] ?? null)} />
      </div>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <Button onClick={() => void send()} disabled={!file || busy}>
          {busy ? 'Adding…' : 'Add file'}
        </Button>
      </div>
    </fieldset>
  );
}

/** The audio and video items of a sealed capsule, each removable before it opens. */
export function CapsuleMediaList({ capsule, onRemove }: { capsule: TMyCapsule; onRemove: (itemId: string) => Promise<unknown> }) {
  const media = capsule.content.filter((i) => i.type !== 'text');
  if (!media.length) return null;
  return (
    <ul className="capsule-media-list" aria-label={`Audio and video of “${capsule.title}”`}>
      {media.map((item, i) => {
        const itemId = item.data.split('/').pop()!;
        const label = `${item.type === 'audio' ? 'Recording' : 'Video'} ${i + 1}${item.captions ? ' (with captions)' : ''}`;
        return (
          <li key={item.data}>
            {label}{' '}
            <Button
              variant="ghost"
              aria-label={`Remove ${label}`}
              onClick={() => void onRemove(itemId).catch((err: unknown) => toast.error(readApiError(err).detail ?? 'Could not remove the file'))}
            >
              Remove
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
