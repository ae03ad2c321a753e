import type { BillingView } from '@afterword/worker/contracts/billing';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { cancelConsequence, ManagePlan } from './manage-plan';

const plus: BillingView = {
  plan: 'plus',
  plan_name: 'Plus',
  purchased_plan: 'plus',
  cycle: 'monthly',
  status: 'active',
  renews_at: '2026-12-28T09:00:00.000Z',
  ends_at: null,
  provider: 'sandbox',
  cancel_at_period_end: false,
  can_manage: true,
  meters: [],
};

describe('managing a plan in the sandbox portal', () => {
  it('asks before cancelling, saying the plan stays to the end of the period and nothing is deleted', async () => {
    const onAction = vi.fn(async () => {});
    render(<ManagePlan billing={plus} onAction={onAction} pending={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel plan' }));
    expect(onAction).not.toHaveBeenCalled();
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your plan?' });
    expect(dialog.textContent).toContain(cancelConsequence(plus));
    expect(cancelConsequence(plus)).toMatch(/^Your Plus plan stays until .*2026.*nothing you made is deleted/);
    fireEvent.click(screen.getAllByRole('button', { name: 'Cancel plan' }).at(-1)!);
    await waitFor(() => expect(onAction).toHaveBeenCalledWith('cancel'));
  });

  it('once cancelled, says when it ends and offers to keep the plan', () => {
    const onAction = vi.fn(async () => {});
    render(<ManagePlan billing={{ ...plus, cancel_at_period_end: true }} onAction={onAction} pending={false} />);
    expect(screen.getByRole('status').textContent).toMatch(/^Cancelled: your plan ends on .*Nothing is deleted\.$/);
    fireEvent.click(screen.getByRole('button', { name: 'Keep my plan' }));
    expect(onAction).toHaveBeenCalledWith('resume');
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).toBeNull();
  });

  it('offers the other cycle and another card', () => {
    const onAction = vi.fn(async () => {});
    render(<ManagePlan billing={{ ...plus, cycle: 'annual' }} onAction={onAction} pending={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch to monthly billing' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use another card' }));
    expect(onAction.mock.calls).toEqual([['switch_cycle'], ['update_card']]);
  });
});
