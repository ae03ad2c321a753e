import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { LadderBanner } from './ladder-banner';
import { ladder, openWindowLadder, VETO_SUMMARY } from './test-fixtures';
import { T } from './texts';

describe("the dashboard banner on Ada's ladder", () => {
  it('with the veto window open: an alert with the summary, that a check-in refutes it, and a link to the Guardian page', async () => {
    renderWithRouter(() => <LadderBanner ladder={openWindowLadder()} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(VETO_SUMMARY);
    expect(alert.textContent).toContain(T.bannerRefutes);
    expect(within(alert).getByRole('link', { name: T.bannerLink }).getAttribute('href')).toBe('/app/guardian');
  });

  it('while a report gathers votes: a softer notice, not an alert', async () => {
    const summary = 'Your death was reported by 1 of the 2 guardians needed. Check in to refute it.';
    renderWithRouter(() => <LadderBanner ladder={ladder({ stage: 'reported', missed: true, summary })} />);
    expect((await screen.findByRole('status')).textContent).toContain(summary);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('on hold: a softer notice too', async () => {
    renderWithRouter(() => <LadderBanner ladder={openWindowLadder({ stage: 'on_hold', summary: 'a guardian asked to hold' })} />);
    expect((await screen.findByRole('status')).textContent).toContain('a guardian asked to hold');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing while no report is open, or before the ladder is read', async () => {
    renderWithRouter(() => (
      <>
        <p>Dashboard</p>
        <LadderBanner ladder={ladder()} />
        <LadderBanner ladder={ladder({ stage: 'missed', missed: true })} />
        <LadderBanner ladder={undefined} />
      </>
    ));
    await screen.findByText('Dashboard');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
