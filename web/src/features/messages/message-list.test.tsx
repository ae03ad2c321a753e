import type { MessageFilter } from '@afterword/worker/contracts/messages';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { matchesFilter, MessageFilterTabs, MessageList } from './message-list';
import { messageView } from './test-fixtures';

const MESSAGES = [
  messageView({ id: 'm-pending', content: 'Still waiting', status: 'scheduled', delivered: false }),
  messageView({ id: 'm-armed', content: 'Armed one', status: 'armed', delivered: false }),
  messageView({ id: 'm-sent', content: 'Already sent', status: 'delivered', delivered: true, released_at: '2026-05-14T09:00:05.000Z' }),
];

function Page({ initial = 'all' as MessageFilter }) {
  const [filter, setFilter] = useState<MessageFilter>(initial);
  return (
    <>
      <MessageFilterTabs value={filter} onChange={setFilter} />
      <MessageList messages={MESSAGES} filter={filter} />
    </>
  );
}

const titles = () => screen.queryAllByRole('heading', { level: 3 }).map((h) => h.textContent);

describe('My Messages list and filters', () => {
  it('Pending means not delivered and Sent means delivered', () => {
    expect(matchesFilter({ delivered: false }, 'pending')).toBe(true);
    expect(matchesFilter({ delivered: true }, 'pending')).toBe(false);
    expect(matchesFilter({ delivered: true }, 'sent')).toBe(true);
    expect(matchesFilter({ delivered: false }, 'all')).toBe(true);
  });

  it('switches between All, Pending and Sent with pressed toggle buttons', async () => {
    renderWithRouter(() => <Page />);
    const group = await screen.findByRole('group', { name: 'Show messages' });
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => [b.textContent, b.getAttribute('aria-pressed')])).toEqual([
      ['All', 'true'],
      ['Pending', 'false'],
      ['Sent', 'false'],
    ]);
    expect(titles()).toEqual(['Still waiting', 'Armed one', 'Already sent']);

    fireEvent.click(within(group).getByRole('button', { name: 'Pending' }));
    expect(within(group).getByRole('button', { name: 'Pending' }).getAttribute('aria-pressed')).toBe('true');
    expect(titles()).toEqual(['Still waiting', 'Armed one']);

    fireEvent.click(within(group).getByRole('button', { name: 'Sent' }));
    expect(titles()).toEqual(['Already sent']);
  });

  it('lists deliver_at, a status badge and a View button to the view page', async () => {
    renderWithRouter(() => <MessageList messages={[MESSAGES[1]!]} filter="all" />);
    const item = (await screen.findAllByRole('listitem'))[0]!;
    expect(within(item).getByText('Armed').className).toContain('badge--grace');
    expect(item.querySelector('time')?.getAttribute('datetime')).toBe('2026-05-14T09:00:00.000Z');
    expect(item.textContent).toContain('ada@example.com');
    const view = within(item).getByRole('link', { name: 'View message: Armed one' });
    expect(view.getAttribute('href')).toBe('/app/messages/view/m-armed');
  });

  it('shows a message whose recipient left Afterword as undeliverable, with no trace of them', async () => {
    const left = messageView({
      id: 'm-left',
      content: 'For someone who left',
      status: 'cancelled',
      recipient_user_id: null,
      recipient_email: undefined,
      undeliverable: 'recipient_left',
    });
    renderWithRouter(() => <MessageList messages={[left]} filter="pending" />);
    const item = (await screen.findAllByRole('listitem'))[0]!;
    expect(within(item).getByText('Undeliverable: the recipient left Afterword').className).toContain('badge--missed');
    expect(within(item).queryByText('Cancelled')).toBeNull();
    expect(within(item).getByText('Someone who left Afterword')).toBeTruthy();
  });

  it('has an empty state per filter; All offers Create Message', async () => {
    renderWithRouter(() => <MessageList messages={[]} filter="all" />);
    expect(await screen.findByText('No messages yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create Message' }).getAttribute('href')).toBe('/app/create');
  });

  it('says so when nothing is sent yet', () => {
    render(<MessageList messages={[MESSAGES[0]!]} filter="sent" />);
    expect(screen.getByText('No sent messages.')).toBeTruthy();
    expect(screen.queryByRole('listitem')).toBeNull();
  });
});
