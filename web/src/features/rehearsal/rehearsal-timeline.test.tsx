import type { TRehearsal, TRehearsalStep } from '@afterword/worker/contracts/rehearsal';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RehearsalTimeline, reachText } from './rehearsal-timeline';

const NOW = Date.parse('2026-11-28T10:00:00.000Z');
const base = { conditional: false, canary_id: null, message_id: null, webhook_id: null, misses: null, reached: [], gaps: [] } satisfies Partial<TRehearsalStep>;

const report: TRehearsal = {
  id: 'r-1',
  created_at: '2026-11-28T10:00:00.000Z',
  status: 'done',
  notify_recipients: false,
  notify_guardians: false,
  gaps: ['SMS: no verified phone — this warning would not reach you by SMS'],
  others_told: [],
  steps: [
    {
      ...base,
      at: '2026-11-28T10:48:00.000Z',
      kind: 'warning',
      title: 'Reminder: "Daily" enters its grace period',
      detail: 'You are told to check in before 11:00.',
      reached: [
        { channel: 'email', address: 'o•••@example.com', ok: true, note: 'accepted' },
        { channel: 'push', address: '2 devices', ok: true, note: 'delivered to 2 of 2 devices' },
      ],
      gaps: ['SMS: no verified phone — this warning would not reach you by SMS'],
    },
    { ...base, at: '2026-11-28T11:00:00.000Z', kind: 'miss', misses: 1, title: '"Daily": 1 missed check-in', detail: 'The miss counts.' },
    {
      ...base,
      at: '2026-12-01T11:00:00.000Z',
      kind: 'veto_window_ends',
      conditional: true,
      title: 'Your death would be confirmed',
      detail: 'Only if a guardian reported your death when asked.',
    },
  ],
};

describe('a rehearsal report', () => {
  it('lists each step in order with its time in words, what its TEST copy reached, and its gaps', () => {
    render(<RehearsalTimeline report={report} nowMs={NOW} />);
    const steps = within(screen.getByRole('list', { name: 'What would happen' }))
      .getAllByRole('listitem')
      .filter((li) => li.dataset.kind);
    expect(steps.map((li) => li.dataset.kind)).toEqual(['warning', 'miss', 'veto_window_ends']);
    expect(steps[0]!.querySelector('time')?.textContent).toMatch(/in 48 minutes/);
    const reached = within(steps[0]!).getByRole('list', { name: 'What the TEST copy reached' });
    expect(reached.textContent).toContain('Email o•••@example.com: accepted');
    expect(reached.textContent).toContain('Push 2 devices: delivered to 2 of 2 devices');
    expect(steps[0]!.textContent).toContain('SMS: no verified phone — this warning would not reach you');
    expect(within(steps[2]!).getByText('Only if reported')).toBeTruthy();
  });

  it('puts the gaps first, as an alert', () => {
    render(<RehearsalTimeline report={report} nowMs={NOW} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Gaps found');
    expect(alert.textContent).toContain('SMS: no verified phone');
  });

  it('says so when nothing would happen and no gap was found', () => {
    render(<RehearsalTimeline report={{ ...report, gaps: [], steps: [] }} nowMs={NOW} />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('No gaps found: every warning reached you on a channel you chose.')).toBeTruthy();
    expect(screen.getByText('Nothing would happen.')).toBeTruthy();
  });

  it('writes a failed channel with what it answered', () => {
    expect(reachText({ channel: 'sms', address: '•••• 0142', ok: false, note: 'failed: 503' })).toBe('SMS •••• 0142: failed: 503');
  });
});
