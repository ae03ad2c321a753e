import type { TChatImport } from '@afterword/worker/contracts/chat-import';
import { useId, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { TextField } from '../../components/field';
import { QueryState } from '../../components/query-state';
import { Time } from '../../components/time';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { isJsonFile, uploadChatExport } from './chat-import-api';
import { FORMAT_LABEL, STATUS_LABEL, T } from './texts';

/** The job is polled every second while the server reads the file (as the voice training). */
export const IMPORT_POLL_MS = 1000;

export type UploadChat = (file: File, sender: string) => Promise<TChatImport>;

type UploadState = { kind: 'idle' } | { kind: 'uploading' } | { kind: 'queued'; jobId: string } | { kind: 'error'; detail: string };

/**
 * Import Chat (docs/product.md "Voice, persona and chat import"): a JSON file (Upload disabled until one is
 * chosen), the status 'uploading', then 'queued: {job_id}' or 'error'; then the job as it runs — asking which
 * sender is the owner when the export does not say — and the imports made so far. `upload` is the REST call (a test
 * passes its own).
 */
export function ImportChat({ upload = uploadChatExport }: { upload?: UploadChat }) {
  const utils = trpc.useUtils();
  const [file, setFile] = useState<File | null>(null);
  const [sender, setSender] = useState('');
  const [state, setState] = useState<UploadState>({ kind: 'idle' });
  const [fileError, setFileError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const fileId = useId();

  async function send() {
    if (!file) return;
    if (!isJsonFile(file)) {
      setFileError(T.jsonOnly);
      return;
    }
    setState({ kind: 'uploading' });
    try {
      const job = await upload(file, sender);
      utils.chatImport.get.setData({ id: job.job_id }, job);
      setState({ kind: 'queued', jobId: job.job_id });
      setFile(null);
      if (input.current) input.current.value = '';
      await utils.chatImport.list.invalidate();
    } catch (err) {
      setState({ kind: 'error', detail: readApiError(err).detail ?? 'The upload failed' });
    }
  }

  return (
    <>
      <Card title={T.uploadTitle}>
        <p className="muted">{T.formats}</p>
        <div className="field">
          <label className="field__label" htmlFor={fileId}>
            {T.fileField}
          </label>
          <input
            ref={input}
            id={fileId}
            className="input"
            type="file"
            accept="application/json,.json"
            aria-describedby={fileError ? `${fileId}-error` : undefined}
            aria-invalid={fileError ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFileError(null);
            }}
          />
          {fileError ? (
            <p className="field__error" id={`${fileId}-error`}>
              {fileError}
            </p>
          ) : null}
        </div>
        <TextField label={T.senderField} hint={T.senderHint} value={sender} maxLength={200} onChange={(e) => setSender(e.target.value)} />
        <div className="button-row">
          <Button onClick={() => void send()} disabled={!file || state.kind === 'uploading'}>
            {T.upload}
          </Button>
        </div>
        <UploadStatus state={state} />
      </Card>
      {state.kind === 'queued' ? <CurrentImport jobId={state.jobId} /> : null}
      <ImportList />
    </>
  );
}

function UploadStatus({ state }: { state: UploadState }) {
  if (state.kind === 'idle') return <p role="status" className="import-status" />;
  return (
    <div>
      <p role="status" className="import-status">
        {state.kind === 'uploading' ? T.uploading : state.kind === 'queued' ? T.queued(state.jobId) : T.error}
      </p>
      {state.kind === 'error' ? (
        <p className="field__error" role="alert">
          {state.detail}
        </p>
      ) : null}
    </div>
  );
}

const running = (job: TChatImport | undefined) => job?.status === 'queued' || job?.status === 'processing';

/** The import just uploaded, polled until it completes, fails or waits for the owner. */
function CurrentImport({ jobId }: { jobId: string }) {
  const utils = trpc.useUtils();
  const job = trpc.chatImport.get.useQuery({ id: jobId }, { refetchInterval: (q) => (running(q.state.data) ? IMPORT_POLL_MS : false) });
  return (
    <Card title={T.jobTitle}>
      <QueryState query={job} loading={T.jobLoading} failed={T.jobFailed}>
        {(j) => (
          <>
            <JobSummary job={j} />
            {j.status === 'needs_sender' && j.senders ? (
              <PickSender
                job={j}
                onPicked={async (next) => {
                  utils.chatImport.get.setData({ id: jobId }, next);
                  await utils.chatImport.list.invalidate();
                }}
              />
            ) : null}
          </>
        )}
      </QueryState>
    </Card>
  );
}

function JobSummary({ job }: { job: TChatImport }) {
  return (
    <p>
      <Badge tone={job.status === 'complete' ? 'active' : job.status === 'failed' ? 'missed' : 'neutral'}>{STATUS_LABEL[job.status]}</Badge> {job.file_name} ·{' '}
      {FORMAT_LABEL[job.format]}
      {job.status === 'complete' && job.line_count != null ? ` · ${T.kept(job.line_count, job.message_count ?? 0)}` : null}
      {job.status === 'failed' && job.error ? ` · ${job.error}` : null}
    </p>
  );
}

function PickSender({ job, onPicked }: { job: TChatImport; onPicked: (next: TChatImport) => Promise<void> }) {
  const [picked, setPicked] = useState('');
  const [error, setError] = useState<string | null>(null);
  const choose = trpc.chatImport.chooseSender.useMutation({
    onSuccess: (next) => void onPicked(next),
    onError: (err) => setError(readApiError(err).detail ?? 'Could not save your choice'),
  });
  const name = useId();
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">{T.whichIsYou}</legend>
      {(job.senders ?? []).map((s) => (
        <div key={s.name} className="checkbox">
          <input
            className="checkbox__input"
            type="radio"
            id={`${name}-${s.name}`}
            name={name}
            value={s.name}
            checked={picked === s.name}
            onChange={() => {
              setPicked(s.name);
              setError(null);
            }}
          />
          <label className="checkbox__label" htmlFor={`${name}-${s.name}`}>
            {s.name} <span className="muted">({T.messagesBy(s.count)})</span>
          </label>
        </div>
      ))}
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <Button disabled={choose.isPending} onClick={() => (picked ? choose.mutate({ id: job.job_id, sender: picked }) : setError(T.pickFirst))}>
          {T.thisIsMe}
        </Button>
      </div>
    </fieldset>
  );
}

function ImportList() {
  const utils = trpc.useUtils();
  const list = trpc.chatImport.list.useQuery(undefined, { refetchInterval: (q) => (q.state.data?.some(running) ? IMPORT_POLL_MS : false) });
  const [confirming, setConfirming] = useState<TChatImport | null>(null);
  const remove = trpc.chatImport.delete.useMutation({
    onSuccess: async () => {
      toast.success(T.deleted);
      setConfirming(null);
      await utils.chatImport.list.invalidate();
    },
    onError: (err) => void toast.error(readApiError(err).detail ?? 'Could not delete the import'),
  });
  return (
    <Card title={T.listTitle}>
      <QueryState query={list} loading={T.listLoading} failed={T.listFailed}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState title={T.listEmpty}>{T.listEmptyHint}</EmptyState>
          ) : (
            <ul className="chat-imports" aria-label={T.listTitle}>
              {items.map((job) => (
                <li key={job.job_id} className="chat-import">
                  <JobSummary job={job} />
                  <span className="muted">
                    <Time value={job.created_at} />
                  </span>{' '}
                  <Button variant="ghost" aria-label={T.deleteLabel(job.file_name)} onClick={() => setConfirming(job)}>
                    Delete
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? null : setConfirming(null))}
        title={T.deleteTitle}
        description={T.deleteDescription}
        confirmLabel="Delete"
        confirmVariant="danger"
        pending={remove.isPending}
        onConfirm={() => confirming && remove.mutate({ id: confirming.job_id })}
      />
    </Card>
  );
}
