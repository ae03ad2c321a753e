import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { receivedMessage } from './test-fixtures';
import { WaitingForYou } from './waiting-for-you';

const ann = { id: 'ann', email: 'ann@example.com', name: 'Ann' };
const carl = { id: 'carl', email: 'carl@example.com', name: null };

describe('WaitingForYou', () => {
  it('says who left unopened messages, one line per sender, and links the first', async () => {
    renderWithRouter(() => (
      <WaitingForYou
        messages={[
          receivedMessage({ id: 'm1', sender: ann }),
          receivedMessage({ id: 'm2', sender: ann }),
          receivedMessage({ id: 'm3', sender: carl }),
          receivedMessage({ id: 'm4', sender: carl, read_at: '2026-05-15T10:00:00.000Z' }),
        ]}
      />
    ));
    const items = (await screen.findAllByRole('listitem')).map((li) => li.textContent);
    expect(items).toEqual([
      'Ann left you 2 messages. Open the first (the first message from Ann)',
      'carl@example.com left you a message. Open it (the message from carl@example.com)',
    ]);
    expect(screen.getByRole('link', { name: 'Open the first (the first message from Ann)' }).getAttribute('href')).toBe('/app/inbox/m1');
  });

  it('shows nothing once everything has been opened', async () => {
    const { container } = renderWithRouter(() => (
      <div data-testid="host">
        <WaitingForYou messages={[receivedMessage({ read_at: '2026-05-15T10:00:00.000Z' })]} />
      </div>
    ));
    await screen.findByTestId('host');
    expect(container.textContent).toBe('');
  });
});
