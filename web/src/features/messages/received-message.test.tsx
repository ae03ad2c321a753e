import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithQuery } from '../../test-utils/query-client';
import { ReceivedMessageView } from './received-message';
import { releaseReasonText } from './release-reason';
import { receivedMessage } from './test-fixtures';

describe('ReceivedMessageView', () => {
  it('says who it is from, when it was released to them and why, with the content', () => {
    renderWithQuery(<ReceivedMessageView message={receivedMessage()} />);
    expect(screen.getByText('Ann (ann@example.com)')).toBeTruthy();
    expect(screen.getByText('Released because Ann missed 3 check-ins.')).toBeTruthy();
    expect(screen.getByText('Released to you')).toBeTruthy();
    expect(screen.getByText(/the keys are in the blue box/)).toBeTruthy();
  });

  it("shows none of the sender's side: no status, channel, rules, delivery log, history or actions", () => {
    const { container } = renderWithQuery(<ReceivedMessageView message={receivedMessage({ sender: { id: 's', email: 'ann@example.com', name: null } })} />);
    const text = container.textContent ?? '';
    for (const internal of ['Status', 'Failed', 'Delivered', 'Method', 'Email', 'Delivery log', 'State history', 'Rules', 'released it by hand']) {
      expect(text, internal).not.toContain(internal);
    }
    expect(screen.queryByRole('button')).toBeNull();
    // No display name: the email names the sender.
    expect(screen.getByText('Released because ann@example.com missed 3 check-ins.')).toBeTruthy();
  });

  it('hands an end-to-end encrypted message to the opener, never its ciphertext', () => {
    const sealed = receivedMessage({ use_e2ee: true, content: '', content_encrypted: '{"v":1,"ct":"c2VjcmV0"}' });
    const { container } = renderWithQuery(<ReceivedMessageView message={sealed} renderEncrypted={(m) => <p>Opened {m.id}</p>} />);
    expect(screen.getByText(`Opened ${sealed.id}`)).toBeTruthy();
    expect(container.textContent).not.toContain('c2VjcmV0');
  });
});

describe('releaseReasonText', () => {
  it('says why in words for every way a message is released', () => {
    const say = (kind: Parameters<typeof releaseReasonText>[0]['kind'], count: number | null = null) => releaseReasonText({ kind, count }, 'Ann');
    expect(say('missed_checkins', 1)).toBe('Released because Ann missed 1 check-in.');
    expect(say('fixed_date')).toBe('Released on the date Ann chose.');
    expect(say('delay_after_death', 0)).toBe("Released when Ann's death was confirmed, as they asked.");
    expect(say('delay_after_death', 7)).toBe("Released 7 days after Ann's death was confirmed, as they asked.");
    expect(say('recipient_birthday')).toBe('Released on your birthday, as Ann asked.');
    expect(say('deliver_at')).toBe('Released at the time Ann chose.');
    expect(say('by_sender')).toBe('Ann chose to release it to you now.');
  });
});
