import type { TRehearsal } from '@afterword/worker/contracts/rehearsal';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Time } from '../../components/time';

interface Props {
  recent: readonly Pick<TRehearsal, 'id' | 'created_at' | 'gaps'>[];
  onRun: (input: { notify_recipients: boolean; notify_guardians: boolean }) => void;
  pending: boolean;
}

/** "Test everything": what a rehearsal does, who else may be told, the button, and the recent reports. */
export function TestEverything({ recent, onRun, pending }: Props) {
  const [recipients, setRecipients] = useState(false);
  const [guardians, setGuardians] = useState(false);
  return (
    <div className="stack">
      <p>
        See what would happen if you stopped checking in now: each warning and when, your guardians' question, each message and vault item with its release
        time, each webhook. A TEST copy of each warning goes to your channels, so you find out which ones reach you. Nothing is released or counted.
      </p>
      <CheckboxField label="Also tell my recipients it is a rehearsal" checked={recipients} onChange={(e) => setRecipients(e.target.checked)} />
      <CheckboxField label="Also tell my guardians it is a rehearsal" checked={guardians} onChange={(e) => setGuardians(e.target.checked)} />
      <div>
        <Button onClick={() => onRun({ notify_recipients: recipients, notify_guardians: guardians })} disabled={pending}>
          {pending ? 'Testing…' : 'Test everything'}
        </Button>
      </div>
      {recent.length ? (
        <ul aria-label="Your rehearsals">
          {recent.slice(0, 3).map((r) => (
            <li key={r.id}>
              <Link to="/app/rehearsal/$id" params={{ id: r.id }}>
                Rehearsal of <Time value={r.created_at} />
              </Link>{' '}
              — {r.gaps.length ? `${r.gaps.length} gap${r.gaps.length === 1 ? '' : 's'}` : 'no gaps'}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
