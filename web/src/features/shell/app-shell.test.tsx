import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { markOnboardingSeen } from '../../lib/session';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { AppShell } from './app-shell';

const EXPECTED = [
  ['Dashboard', '/app'],
  ['My Messages', '/app/messages'],
  ['Create Message', '/app/create'],
  ['Voice Trainer', '/app/voice-legacy'],
  ['Voice Chat', '/app/voice-chat'],
  ['Import Chat', '/app/import'],
  ['Canary Status', '/app/canary-status'],
  ['Data Consents', '/app/consent'],
  ['Help', '/app/help'],
];

async function renderShell(onLogout = vi.fn()) {
  renderWithRouter(
    () => (
      <AppShell email="ada@example.com" onLogout={onLogout}>
        <p>Page</p>
      </AppShell>
    ),
    '/app',
  );
  await screen.findByText('Page');
  return onLogout;
}

describe('AppShell', () => {
  beforeEach(() => markOnboardingSeen()); // the welcome modal is tested on its own

  it('lists exactly the nine main sidebar entries, in order', async () => {
    await renderShell();
    const links = within(screen.getByRole('navigation', { name: 'App' })).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual(EXPECTED);
  });

  it('links the local Outbox apart from the main entries, only when the server says it exists', async () => {
    renderWithRouter(
      () => (
        <AppShell email="ada@example.com" onLogout={vi.fn()} outboxEnabled>
          <p>Page</p>
        </AppShell>
      ),
      '/app',
    );
    await screen.findByText('Page');
    const local = screen.getByRole('navigation', { name: 'Local development' });
    expect(within(local).getByRole('link', { name: 'Outbox' }).getAttribute('href')).toBe('/app/outbox');
    expect(within(screen.getByRole('navigation', { name: 'App' })).getAllByRole('link')).toHaveLength(EXPECTED.length);
  });

  it('links the Inbox below the main entries, apart from them, with its unread count when there is one', async () => {
    renderWithRouter(
      () => (
        <AppShell email="ada@example.com" onLogout={vi.fn()} unread={3}>
          <p>Page</p>
        </AppShell>
      ),
      '/app',
    );
    await screen.findByText('Page');
    const received = screen.getByRole('navigation', { name: 'Received' });
    const inbox = within(received).getByRole('link', { name: 'Inbox 3 unread' });
    expect(inbox.getAttribute('href')).toBe('/app/inbox');
    expect(within(screen.getByRole('navigation', { name: 'App' })).getAllByRole('link')).toHaveLength(EXPECTED.length);
  });

  it('shows no count beside the Inbox when nothing is unread', async () => {
    await renderShell();
    expect(within(screen.getByRole('navigation', { name: 'Received' })).getByRole('link').textContent).toBe('Inbox');
  });

  it('links every other page in a "More" group, apart from the main entries, so none is found only by its address', async () => {
    await renderShell();
    const more = screen.getByRole('navigation', { name: 'More' });
    expect(
      within(more)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Vault', '/app/vault'],
      ['Guardians', '/app/guardian'],
      ['Contacts', '/app/contacts'],
      ['Capsules', '/app/capsules'],
      ['Memorials', '/app/memorial'],
      ['Remembrances', '/app/remembrances'],
      ['Notifications', '/app/notifications'],
      ['Billing', '/app/billing'],
      ['Developer', '/app/developer'],
    ]);
    expect(within(screen.getByRole('navigation', { name: 'App' })).getAllByRole('link')).toHaveLength(EXPECTED.length);
  });

  it('has no Outbox link by default', async () => {
    await renderShell();
    expect(screen.queryByRole('navigation', { name: 'Local development' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Outbox' })).toBeNull();
  });

  it('toggles the sidebar with the Menu button', async () => {
    await renderShell();
    const menu = screen.getByRole('button', { name: 'Menu' });
    const sidebar = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(sidebar.dataset.open).toBe('false');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(sidebar.dataset.open).toBe('true');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('has an Upgrade link, an avatar with the email initial and a Logout button', async () => {
    const onLogout = await renderShell();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/pricing');
    expect(screen.getByRole('img', { name: 'Signed in as ada@example.com' }).textContent).toBe('A');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('shows the welcome modal on a first visit', async () => {
    localStorage.clear();
    await renderShell();
    expect(await screen.findByRole('dialog', { name: 'Welcome to Afterword' })).toBeTruthy();
  });
});
