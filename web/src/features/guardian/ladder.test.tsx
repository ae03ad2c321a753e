import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { formatDateTime } from '../../lib/format-time';
import { LadderCard } from './ladder-card';
import { LadderTimeline } from './ladder-timeline';
import { guardian, openWindowLadder, SAM_ID, VETO_SUMMARY } from './test-fixtures';
import { T } from './texts';

describe("Ada's ladder timeline", () => {
  it('tells each step with its time, who took it and why, in plain words', () => {
    render(<LadderTimeline transitions={openWindowLadder().transitions} guardianNames={new Map([[SAM_ID, 'Sam']])} />);
    const [opened, reported, asked] = within(screen.getByRole('list', { name: 'Ladder timeline' })).getAllByRole('listitem');
    expect(opened!.textContent).toContain('Veto window opened');
    expect(opened!.textContent).toContain('By Afterword. Enough guardians reported it.');
    expect(opened!.querySelector('time')!.getAttribute('dateTime')).toBe('2026-05-11T09:00:00Z');
    expect(opened!.textContent).toContain(formatDateTime('2026-05-11T09:00:00Z'));
    // The server's UTC time in the detail is shown like every other time.
    expect(opened!.textContent).toContain(`ends ${formatDateTime('2026-05-14T09:00:00Z')}`);
    expect(reported!.textContent).toContain('Death reported');
    expect(reported!.textContent).toContain('By Sam. A guardian reported it.');
    expect(asked!.textContent).toContain('By Afterword. You missed a check-in.');
  });

  it('names a guardian it does not know as "a guardian", and still reads a step it has no words for', () => {
    render(
      <LadderTimeline
        transitions={[
          { at: '2026-05-11T09:00:00Z', kind: 'guardian_fine', actor: 'guardian:gone', cause: 'guardian_answered', detail: null, report_id: null },
          { at: '2026-05-10T09:00:00Z', kind: 'something_new', actor: 'key:k1', cause: 'odd_cause', detail: null, report_id: null },
        ]}
      />,
    );
    const [fine, unknown] = screen.getAllByRole('listitem');
    expect(fine!.textContent).toContain('By a guardian. They answered when asked about you.');
    expect(unknown!.textContent).toContain('Something new');
    expect(unknown!.textContent).toContain('By an API key. Odd cause.');
  });

  it('says so when nothing has happened yet', () => {
    render(<LadderTimeline transitions={[]} />);
    expect(screen.getByText(T.timelineEmpty)).toBeTruthy();
  });
});

describe("Ada's ladder card on the Guardian page", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads guardian.ladder and shows the stage, what happens next and when, and the steps by name', async () => {
    const api = fakeTrpcApi({ 'guardian.ladder': () => ok(openWindowLadder()) });
    renderWithTrpc(<LadderCard guardians={[guardian({ status: 'active', name: 'Sam' })]} />, api);
    expect(await screen.findByText(VETO_SUMMARY)).toBeTruthy();
    const current = screen.getByRole('list', { name: 'The guardian ladder' }).querySelector('[aria-current="step"]');
    expect(current!.textContent).toBe('Veto window');
    expect(screen.getByText(/reminded again, halfway/).textContent).toContain(formatDateTime('2026-05-12T21:00:00Z'));
    expect(screen.getByText('1 of 1 needed')).toBeTruthy();
    expect(screen.getByText('By Sam. A guardian reported it.')).toBeTruthy();
  });

  it('shows the error state when the ladder cannot be read', async () => {
    renderWithTrpc(<LadderCard />, fakeTrpcApi({}));
    expect(await screen.findByText(T.loadFailed)).toBeTruthy();
  });
});
