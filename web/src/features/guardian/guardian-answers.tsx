import { MAX_HOLD_DAYS, ZGuardianAnswerInput } from '@afterword/worker/contracts/guardian';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import type { useGuardianAnswers } from './queries';
import { T } from './texts';
import type { GuardedOwner } from './types';

export type AnswerActions = ReturnType<typeof useGuardianAnswers>;

const holdLabel = (days: string) => {
  const n = Number(days);
  return Number.isInteger(n) && n >= 1 ? `Hold ${n} day${n === 1 ? '' : 's'}` : 'Hold';
};

/** The guardian's three answers about one person, and resigning; reporting a death and resigning ask first. */
export function GuardianAnswers({ owner, actions }: { owner: GuardedOwner; actions: AnswerActions }) {
  const [days, setDays] = useState('7');
  const [daysError, setDaysError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'report' | 'resign' | null>(null);
  const name = owner.owner_name;
  const isConfirmed = owner.stage === 'confirmed';

  function hold() {
    // The contract's own rule for days (1 to MAX_HOLD_DAYS, whole), before anything is sent.
    const parsed = ZGuardianAnswerInput.safeParse({ answer: 'hold', days: Number(days) });
    setDaysError(parsed.success ? null : T.holdDaysInvalid(MAX_HOLD_DAYS));
    if (parsed.success) void actions.answer(owner.id, parsed.data);
  }

  async function confirm() {
    const done = confirming === 'report' ? await actions.answer(owner.id, { answer: 'report_death' }) : await actions.resign(owner.id);
    if (done) setConfirming(null);
  }

  return (
    <>
      {isConfirmed ? null : (
        <fieldset className="fieldset">
          <legend className="fieldset__legend">Have you heard from {name}?</legend>
          <div className="button-row">
            <Button variant="secondary" disabled={actions.answerPending} onClick={() => void actions.answer(owner.id, { answer: 'fine' })}>
              They are fine
            </Button>
          </div>
          <div className="form-row">
            <TextField
              label="Days to hold"
              name="hold_days"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_HOLD_DAYS}
              hint={`Pauses what is set to go after their death; nothing else moves. 1 to ${MAX_HOLD_DAYS} days.`}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              error={daysError}
            />
            <Button variant="secondary" disabled={actions.answerPending} onClick={hold}>
              {holdLabel(days)}
            </Button>
          </div>
          <div className="button-row">
            <Button variant="danger" disabled={actions.answerPending || !owner.missed} onClick={() => setConfirming('report')}>
              Report death
            </Button>
          </div>
          {owner.missed ? null : <p className="muted">You can report a death only after {name} has missed a check-in.</p>}
        </fieldset>
      )}
      <div className="button-row">
        <Button variant="ghost" disabled={actions.resignPending} onClick={() => setConfirming('resign')}>
          Resign<span className="visually-hidden"> as {name}'s guardian</span>
        </Button>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming === 'resign' ? T.resignTitle(name) : T.reportTitle(name)}
        description={
          confirming === 'resign'
            ? `${name} is told, and you are no longer asked about them. Only a new invitation from ${name} can make you their guardian again.`
            : `Report only a death you know to be true. When enough of ${name}'s guardians have reported it, ${name} is warned at once on every channel and a veto window opens: any check-in by ${name} refutes it. If nobody refutes it, their death is confirmed and what they set to go after their death is released.`
        }
        confirmLabel={confirming === 'resign' ? T.resignConfirm : T.reportConfirm}
        confirmVariant="danger"
        pending={confirming === 'resign' ? actions.resignPending : actions.answerPending}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
