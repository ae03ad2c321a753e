import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/session';
import { renderWithQuery } from '../../test-utils/query-client';
import { CANCEL_CONFIRM_TEXT, MessageDetail, RELEASE_CONFIRM_TEXT, type MessageDetailData } from './message-detail';
import { PAUSED_LABEL, PAUSED_NOTE, UNDELIVERABLE_LABEL, UNDELIVERABLE_NOTE } from './format';
import { messageView } from './test-fixtures';

function data(overrides: Partial<MessageDetailData> = {}): MessageDetailData {
  return {
    message: messageView({ status: 'delivered', delivered: true, released_at: '2026-05-14T09:00:01.000Z' }),
    role: 'sender',
    transitions: [
      { at: '2026-05-14T09:00:01.000Z', from: 'releasing', to: 'delivered', cause: 'delivery', detail: 'Delivered by email and to the inbox.' },
      { at: '2026-05-01T09:00:00.000Z', from: null, to: 'scheduled', cause: 'created', detail: 'Created; due Thu 14 May 09:00.' },
      { at: '2026-05-14T09:00:00.000Z', from: 'scheduled', to: 'releasing', cause: 'deliver_at', detail: 'Its delivery time came.' },
    ],
    log: [
      { created_at: '2026-05-14T09:00:00.500Z', channel: 'inbox', success: true, attempt: 1 },
      { created_at: '2026-05-14T09:00:00.700Z', channel: 'email', success: false, error: 'SMTP 451: try again later', attempt: 1 },
      { created_at: '2026-05-14T09:00:01.000Z', channel: 'email', success: true, attempt: 2 },
    ],
    ...overrides,
  };
}

function renderDetail(d = data()) {
  const onRelease = vi.fn(async (_id: string) => true);
  const onCancel = vi.fn(async (_id: string) => true);
  renderWithQuery(<MessageDetail data={d} onRelease={onRelease} onCancel={onCancel} pending={false} />);
  return { onRelease, onCancel };
}

const card = (title: string) => screen.getByRole('heading', { level: 2, name: title }).closest('section')!;

describe('MessageDetail', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says a scheduled message is paused by the withdrawn messages consent, in words, instead of when it goes', () => {
    renderDetail(data({ message: messageView({ status: 'scheduled', paused: 'consent_withdrawn' }) }));
    const message = card('Message');
    expect(within(message).getByText(PAUSED_LABEL).className).toContain('badge--grace');
    expect(within(message).getByText(PAUSED_NOTE)).toBeTruthy();
    expect(within(message).queryByText(/released at/i)).toBeNull();
  });

  it('says a future scheduled letter will be released at its time, and calls a rule message’s time a floor, not a delivery', () => {
    renderDetail(data({ message: messageView({ status: 'scheduled', rules: [], deliver_at: '2027-05-14T09:30:00.000Z' }) }));
    expect(within(card('Message')).getByText(/^Will be released at/)).toBeTruthy();
    expect(within(card('Message')).queryByText(/^Released at/)).toBeNull();
    cleanup();
    renderDetail(
      data({
        message: messageView({ status: 'scheduled', rules: [{ trigger_type: 'missed_checkins', trigger_value: '1', expire_window: null, fired_at: null }] }),
      }),
    );
    expect(within(card('Message')).getByText('Not before')).toBeTruthy();
    expect(within(card('Message')).queryByText('Deliver at')).toBeNull();
  });

  it('says a message whose recipient left Afterword is undeliverable, offers no action, and keeps its history', () => {
    const transitions = [
      { at: '2026-05-01T09:00:00.000Z', from: null, to: 'scheduled' as const, cause: 'created', detail: 'Created.' },
      {
        at: '2026-05-03T09:00:00.000Z',
        from: 'scheduled' as const,
        to: 'cancelled' as const,
        cause: 'recipient_left',
        detail: 'The recipient deleted their Afterword account before it was released: it can no longer be delivered.',
      },
    ];
    const message = messageView({ status: 'cancelled', recipient_user_id: null, recipient_email: undefined, undeliverable: 'recipient_left' });
    renderDetail(data({ message, transitions, log: [] }));
    const card_ = card('Message');
    expect(within(card_).getByText(UNDELIVERABLE_LABEL).className).toContain('badge--missed');
    expect(within(card_).getByText(UNDELIVERABLE_NOTE)).toBeTruthy();
    expect(within(card_).getByText('Someone who left Afterword')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Release now|Cancel message/ })).toBeNull();
    expect(screen.getByText(/deleted their Afterword account before it was released/)).toBeTruthy();
  });

  it('shows the content and a delivery log with time, channel, success or failed, and the error', () => {
    renderDetail();
    expect(screen.getByText(/the keys are in the blue box/).textContent).toBe('Dear Ada,\nthe keys are in the blue box.');
    const rows = within(card('Delivery log')).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent))).toEqual([
      ['Inbox', 'Success', '—'],
      ['Email', 'Failed', 'SMTP 451: try again later'],
      ['Email (attempt 2)', 'Success', '—'],
    ]);
    expect(rows[1]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-05-14T09:00:00.700Z');
    expect(within(rows[1]!).getByText('Failed').className).toContain('badge--missed');
  });

  it('shows the state history oldest first: time, from → to, and why', () => {
    renderDetail();
    const items = within(card('State history')).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.timeline__states')?.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Scheduled',
      'Scheduled → to Releasing',
      'Releasing → to Delivered',
    ]);
    expect(items.map((li) => li.querySelector('.timeline__detail')?.textContent)).toEqual([
      'Created; due Thu 14 May 09:00.',
      'Its delivery time came.',
      'Delivered by email and to the inbox.',
    ]);
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-05-01T09:00:00.000Z');
  });

  it('says when nothing has been sent yet, and has a reply box that sends nothing', () => {
    renderDetail(data({ log: [], message: messageView() }));
    expect(within(card('Delivery log')).getByText('Nothing has been sent yet.')).toBeTruthy();
    const reply = screen.getByLabelText(/^Your reply/);
    fireEvent.change(reply, { target: { value: 'Thank you' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reply' }));
    expect((reply as HTMLTextAreaElement).value).toBe('Thank you');
  });

  it('lets the sender release a scheduled message after confirming', async () => {
    const { onRelease } = renderDetail(data({ message: messageView({ id: 'm-9' }), log: [] }));
    fireEvent.click(screen.getByRole('button', { name: 'Release now' }));
    const dialog = await screen.findByRole('dialog', { name: RELEASE_CONFIRM_TEXT });
    expect(dialog.textContent).toContain('ada@example.com');
    expect(onRelease).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Release now' }));
    await waitFor(() => expect(onRelease).toHaveBeenCalledWith('m-9'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets the sender cancel, and Keep message sends nothing', async () => {
    const { onCancel } = renderDetail(data({ message: messageView({ id: 'm-8', status: 'armed', cancel_deadline: '2026-05-16T09:00:00.000Z' }), log: [] }));
    expect(screen.getByText(/A rule has fired/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel message' }));
    let dialog = await screen.findByRole('dialog', { name: CANCEL_CONFIRM_TEXT });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep message' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onCancel).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel message' }));
    dialog = await screen.findByRole('dialog', { name: CANCEL_CONFIRM_TEXT });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel message' }));
    await waitFor(() => expect(onCancel).toHaveBeenCalledWith('m-8'));
  });

  it('offers no sender actions once delivered', () => {
    renderDetail();
    expect(screen.queryByRole('button', { name: 'Release now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel message' })).toBeNull();
  });

  it('fetches the recording with the bearer header and plays it from an object URL', async () => {
    setToken('tok-audio');
    const fetchMock = vi.fn(async () => new Response(new Blob(['webm'], { type: 'audio/webm' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:recording');
    renderDetail(data({ message: messageView({ id: 'm-7', has_audio: true, audio_type: 'audio/webm' }) }));
    const audio = await screen.findByLabelText('Voice recording', { selector: 'audio' });
    expect(audio.getAttribute('src')).toBe('blob:recording');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/message/m-7/audio');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok-audio');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
  });
});
