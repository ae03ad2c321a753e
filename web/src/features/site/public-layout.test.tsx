import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { PublicLayout } from './public-layout';

const header = () => screen.getByRole('navigation', { name: 'Main' });
const footer = () => screen.getByRole('navigation', { name: 'Footer' });

describe('PublicLayout', () => {
  afterEach(() => localStorage.clear());

  it('offers a visitor Sign in and Create account, in the header and the footer', async () => {
    renderWithRouter(() => <PublicLayout>page</PublicLayout>);
    for (const nav of [await screen.findByRole('navigation', { name: 'Main' }), footer()]) {
      expect(within(nav).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
      expect(within(nav).getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/signup');
      expect(within(nav).queryByRole('link', { name: 'Open Afterword' })).toBeNull();
    }
  });

  it('offers someone signed in on this browser the way back into the app instead', async () => {
    localStorage.setItem('token', 'a-session-token');
    renderWithRouter(() => <PublicLayout>page</PublicLayout>);
    await screen.findByRole('navigation', { name: 'Main' });
    for (const nav of [header(), footer()]) {
      expect(within(nav).getByRole('link', { name: 'Open Afterword' }).getAttribute('href')).toBe('/app');
      expect(within(nav).queryByRole('link', { name: 'Sign in' })).toBeNull();
      expect(within(nav).queryByRole('link', { name: 'Create account' })).toBeNull();
    }
  });
});
