import { useId } from 'react';
import { Button } from '../../components/button';
import { simulatedMiss, useSimulatedMiss } from './simulated-miss';

/** Test mode only: flips this browser to Missed so the notification and title can be seen. */
export function SimulateMissPanel() {
  const simulatedAt = useSimulatedMiss();
  const noteId = useId();
  return (
    <div className="test-mode">
      {simulatedAt === null ? (
        <Button variant="secondary" onClick={simulatedMiss.start} aria-describedby={noteId}>
          Simulate missed check-in
        </Button>
      ) : (
        <Button variant="secondary" onClick={simulatedMiss.clear} aria-describedby={noteId}>
          End simulation
        </Button>
      )}
      <p id={noteId} className="test-mode__note">
        Test mode: this only changes what this browser shows. Nothing is sent to the server and no messages are released.
      </p>
    </div>
  );
}
