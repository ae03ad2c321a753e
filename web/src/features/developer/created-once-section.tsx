import { useState, type ReactNode } from 'react';
import { ErrorState, type FailedRead } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';

interface CreatedOnceSectionProps<Input, Created> {
  /** Resolves what was created (with its secret, its only appearance), or null when it failed (already said). */
  onCreate: (input: Input) => Promise<Created | null>;
  /** The create form, given the create call (true when it succeeded). */
  form: (create: (input: Input) => Promise<boolean>) => ReactNode;
  /** The secret of what was just created, shown once (a ShownOncePanel); `done` drops it. */
  shownOnce: (created: Created, done: () => void) => ReactNode;
  listTitle: string;
  loading: boolean;
  loadingLabel: string;
  /** The list's read, when it failed (shown as the error state with Retry); null otherwise. */
  loadFailed: FailedRead | null;
  failedTitle: string;
  /** The list, or null while there is none to show. */
  list: ReactNode | null;
}

/**
 * A Developer page section for what comes with a secret shown once (API keys, webhook signing secrets): the
 * create form, the new secret held in memory only — never cached, stored or logged; a reload or "I have saved
 * it" drops it — and the list, which never holds a secret.
 */
export function CreatedOnceSection<Input, Created>(props: CreatedOnceSectionProps<Input, Created>) {
  const [created, setCreated] = useState<Created | null>(null);

  async function create(input: Input) {
    const result = await props.onCreate(input);
    if (!result) return false;
    setCreated(result);
    return true;
  }

  return (
    <div className="stack">
      {props.form(create)}
      {created ? props.shownOnce(created, () => setCreated(null)) : null}
      <div>
        <h3 className="dev-subtitle">{props.listTitle}</h3>
        {props.loading ? (
          <Skeleton lines={3} label={props.loadingLabel} />
        ) : props.loadFailed ? (
          <ErrorState title={props.failedTitle} read={props.loadFailed} />
        ) : (
          props.list
        )}
      </div>
    </div>
  );
}
