import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import type { ContactOption, Reachability } from '../contacts/types';
import { reachSentence, whenSentSentence } from './consequences';
import { CreateMessageForm } from './create-message-form';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const BOB: ContactOption = { user_id: '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a', name: 'Bob', email: 'bob@example.com' };
const reachOf = (methods: Partial<Reachability['methods']>): Reachability => ({
  user_id: BOB.user_id,
  name: 'Bob',
  methods: { email: true, sms: false, call: false, push: false, ...methods },
});

describe('whenSentSentence', () => {
  it('says that no rules and no date means now, naming the recipient', () => {
    expect(whenSentSentence({ name: 'Bob', hasRules: false, deliverAt: null, nowMs: NOW })).toBe('No rules and no date: this is sent to Bob now.');
    expect(whenSentSentence({ name: null, hasRules: false, deliverAt: null, nowMs: NOW })).toBe('No rules and no date: this is sent to the recipient now.');
  });

  it('says a past date is now too, a future date is that date, and rules make it wait', () => {
    expect(whenSentSentence({ name: 'Bob', hasRules: false, deliverAt: '2026-11-01T00:00:00Z', nowMs: NOW })).toBe(
      'No rules and a date already past: this is sent to Bob now.',
    );
    expect(whenSentSentence({ name: 'Bob', hasRules: false, deliverAt: '2026-12-25T09:00:00Z', nowMs: NOW })).toMatch(
      /^No rules: this is sent to Bob on .+\.$/,
    );
    expect(whenSentSentence({ name: 'Bob', hasRules: true, deliverAt: null, nowMs: NOW })).toBe(
      'This waits for its rules: it is sent to Bob only after one of them fires.',
    );
  });
});

describe('reachSentence', () => {
  it('says when the chosen method cannot reach a picked contact, and nothing when it can or nothing is known', () => {
    expect(reachSentence('push', reachOf({}))).toBe('Bob has no device for push; it will still reach their Inbox.');
    expect(reachSentence('sms', reachOf({}))).toBe('Bob has no verified phone for SMS; it will still reach their Inbox.');
    expect(reachSentence('call', reachOf({}))).toBe('Bob has no verified phone for calls; it will still reach their Inbox.');
    expect(reachSentence('push', reachOf({ push: true }))).toBeNull();
    expect(reachSentence('email', reachOf({}))).toBeNull();
    expect(reachSentence('push', null)).toBeNull();
  });
});

describe('CreateMessageForm with contacts', () => {
  function setup(reach: Reachability = reachOf({})) {
    const create = vi.fn(async () => ({ id: 'm-1' }));
    const reachability = vi.fn(async () => reach);
    renderWithRouter(() => <CreateMessageForm create={create} onCreated={vi.fn()} contacts={[BOB]} withPicker reachability={reachability} now={() => NOW} />);
    return { create, reachability };
  }

  it('fills the Recipient User ID from the picked contact and says, before the button, that it goes to Bob now', async () => {
    const { create } = setup();
    expect(await screen.findByText('No rules and no date: this is sent to the recipient now.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Pick from your contacts'), { target: { value: BOB.user_id } });
    expect((screen.getByLabelText(/^Recipient User ID/) as HTMLInputElement).value).toBe(BOB.user_id);
    const sentence = await screen.findByText('No rules and no date: this is sent to Bob now.');
    const button = screen.getByRole('button', { name: 'Create message' });
    expect(sentence.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
    fireEvent.click(button);
    await waitFor(() => expect(create).toHaveBeenCalledWith(expect.objectContaining({ recipient_user_id: BOB.user_id, content: 'Hello' })));
  });

  it('says when push cannot reach the picked contact, and stops saying it for a method that can', async () => {
    const { reachability } = setup(reachOf({ sms: true }));
    fireEvent.change(await screen.findByLabelText('Pick from your contacts'), { target: { value: BOB.user_id } });
    fireEvent.change(screen.getByLabelText(/^Delivery method/), { target: { value: 'push' } });
    expect(await screen.findByText('Bob has no device for push; it will still reach their Inbox.')).toBeTruthy();
    expect(reachability).toHaveBeenCalledWith(BOB.user_id);
    fireEvent.change(screen.getByLabelText(/^Delivery method/), { target: { value: 'sms' } });
    await waitFor(() => expect(screen.queryByText(/it will still reach their Inbox/)).toBeNull());
  });

  it('asks about nobody for an id typed by hand', async () => {
    const { reachability } = setup();
    fireEvent.change(await screen.findByLabelText(/^Recipient User ID/), { target: { value: '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f' } });
    fireEvent.change(screen.getByLabelText(/^Delivery method/), { target: { value: 'push' } });
    expect(screen.getByText('No rules and no date: this is sent to the recipient now.')).toBeTruthy();
    expect(reachability).not.toHaveBeenCalled();
  });
});
