import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { MORE_ITEMS, RECEIVED_ITEMS, SIDEBAR_ITEMS } from '../shell/nav-items';
import { PAGE_HELP, PageGuide } from './page-guide';

describe('Help: every page', () => {
  it('describes every page of the navigation, in its order, each with a link to it', async () => {
    renderWithRouter(() => <PageGuide />);
    const pages = [...SIDEBAR_ITEMS, ...RECEIVED_ITEMS, ...MORE_ITEMS];
    const terms = await screen.findAllByRole('term');
    expect(terms.map((t) => t.textContent)).toEqual(pages.map((p) => p.label));
    for (const [i, page] of pages.entries()) {
      expect(within(terms[i]!).getByRole('link').getAttribute('href')).toBe(page.to);
      expect(PAGE_HELP[page.to].length).toBeGreaterThan(30);
    }
  });
});
