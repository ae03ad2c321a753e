import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { CREATE_FAILURE_TOAST, CREATE_SUCCESS_TOAST, CreateMessageForm, E2EE_WARNING } from './create-message-form';

const RECIPIENT = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
type Create = (input: TCreateMessageInput) => Promise<{ id: string }>;

function setup(create = vi.fn<Create>(async () => ({ id: 'm-1' }))) {
  const onCreated = vi.fn();
  render(<CreateMessageForm create={create} onCreated={onCreated} />);
  return { create, onCreated };
}

const submitButton = () => screen.getByRole('button', { name: /^(Create message|Creating…)$/ });
const toasts = () => toastStore.getSnapshot().map((t) => [t.kind, t.message]);
const rules = () => screen.queryAllByRole('group', { name: /^Rule \d+$/ });

/** A 422 as the tRPC client surfaces it: field issues in error.data.detail. */
function validationError(detail: unknown) {
  return Object.assign(new Error('Validation failed'), { data: { httpStatus: 422, detail } });
}

describe('CreateMessageForm', () => {
  afterEach(() => act(() => toastStore.reset()));

  it('adds and removes rules, each with its own kind of value', () => {
    setup();
    expect(rules()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(rules()).toHaveLength(3);

    const [first, second, third] = rules();
    expect(within(first!).getByLabelText(/^Number of missed check-ins/)).toBeTruthy();
    fireEvent.change(within(second!).getByLabelText('Trigger'), { target: { value: 'fixed_date' } });
    expect((within(second!).getByLabelText(/^Date/) as HTMLInputElement).type).toBe('date');
    fireEvent.change(within(third!).getByLabelText('Trigger'), { target: { value: 'delay_after_death' } });
    expect(within(third!).getByLabelText(/^Days after death/)).toBeTruthy();
    expect(within(third!).getByLabelText(/^Expire window in days \(optional\)/)).toBeTruthy();

    fireEvent.change(within(first!).getByLabelText(/^Number of missed check-ins/), { target: { value: '3' } });
    fireEvent.click(within(second!).getByRole('button', { name: 'Remove rule 2' }));
    const left = rules();
    expect(left).toHaveLength(2);
    expect((within(left[0]!).getByLabelText(/^Number of missed check-ins/) as HTMLInputElement).value).toBe('3');
    expect(within(left[1]!).getByLabelText(/^Days after death/)).toBeTruthy();
    expect(left.map((r) => r.querySelector('legend')?.textContent)).toEqual(['Rule 1', 'Rule 2']);
  });

  it('shows the exact E2EE warning only while the box is checked', () => {
    setup();
    expect(screen.queryByText(E2EE_WARNING)).toBeNull();
    const box = screen.getByLabelText('Use end-to-end encryption');
    fireEvent.click(box);
    const warning = screen.getByText(E2EE_WARNING);
    expect(warning.textContent).toBe(
      'Warning: This will send an unreadable encrypted message to the recipient who can only decrypt it if they hold the required private key.',
    );
    expect(box.getAttribute('aria-describedby')).toContain(warning.id);
    fireEvent.click(box);
    expect(screen.queryByText(E2EE_WARNING)).toBeNull();
  });

  it('sends the form as typed, with consent, local deliver_at as ISO with its offset, and the rules', async () => {
    const { create, onCreated } = setup();
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'Dear Ada,\nthank you.' } });
    fireEvent.change(screen.getByLabelText(/^Recipient User ID/), { target: { value: RECIPIENT } });
    fireEvent.change(screen.getByLabelText(/^Delivery method/), { target: { value: 'sms' } });
    fireEvent.change(screen.getByLabelText(/^Deliver at/), { target: { value: '2026-05-14T09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    fireEvent.change(screen.getByLabelText(/^Number of missed check-ins/), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText(/^Expire window in days/), { target: { value: '3' } });
    fireEvent.click(submitButton());

    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const input = create.mock.calls[0]![0];
    expect(input).toMatchObject({
      recipient_user_id: RECIPIENT,
      content: 'Dear Ada,\nthank you.',
      delivery_method: 'sms',
      use_e2ee: false,
      consent: true,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '2', expire_window: '3' }],
    });
    expect(input.deliver_at).toMatch(/^2026-05-14T09:30:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(input.deliver_at!)).toBe(new Date(2026, 4, 14, 9, 30).getTime());
    expect(input).not.toHaveProperty('audio_base64');
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ id: 'm-1' }));
    expect(toasts()).toEqual([['success', CREATE_SUCCESS_TOAST]]);
    expect(CREATE_SUCCESS_TOAST).toBe('Message queued');
  });

  it('applies no required check: an empty form is sent, with no deliver_at (now) and no rules', async () => {
    const { create } = setup();
    fireEvent.click(submitButton());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0]).toEqual({ recipient_user_id: '', content: '', delivery_method: 'email', use_e2ee: false, rules: [], consent: true });
  });

  it("reads 'Creating…' and is disabled while sending; repeat submits are ignored", async () => {
    let resolve: (v: { id: string }) => void = () => undefined;
    const { create } = setup(
      vi.fn<Create>(
        () =>
          new Promise((r) => {
            resolve = r;
          }),
      ),
    );
    fireEvent.click(submitButton());
    const pending = await screen.findByRole('button', { name: 'Creating…' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(pending.closest('form')!);
    fireEvent.submit(pending.closest('form')!);
    expect(create).toHaveBeenCalledTimes(1);
    await act(async () => resolve({ id: 'm-2' }));
    expect(await screen.findByRole('button', { name: 'Create message' })).toBeTruthy();
  });

  it("toasts 'Failed to create message' and places the server's 422 details under their fields", async () => {
    const error = validationError([
      { loc: ['input', 'recipient_user_id'], msg: 'recipient_user_id must be a user id (a UUID)', type: 'invalid_string' },
      { loc: ['input', 'rules', 0, 'trigger_value'], msg: 'missed check-ins count must be a whole number', type: 'custom' },
      { loc: ['input', 'consent'], msg: 'consent must be true', type: 'invalid_literal' },
    ]);
    setup(vi.fn<Create>(async () => Promise.reject(error)));
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    fireEvent.click(submitButton());

    // The API's field name reads as the form's label; "(a UUID)" as what to paste.
    expect(await screen.findByText('Recipient User ID must be a whole ID (36 letters, digits and dashes)')).toBeTruthy();
    expect(screen.getByLabelText(/^Recipient User ID/).getAttribute('aria-invalid')).toBe('true');
    const rule = rules()[0]!;
    expect(within(rule).getByText('missed check-ins count must be a whole number')).toBeTruthy();
    expect(
      within(rule)
        .getByLabelText(/^Number of missed check-ins/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('consent must be true');
    expect(toasts()).toEqual([['error', CREATE_FAILURE_TOAST]]);
    expect(CREATE_FAILURE_TOAST).toBe('Failed to create message');
  });

  it('moves the focus to the first field the server refused, so a reason above the fold is seen', async () => {
    const error = validationError([{ loc: ['input', 'content'], msg: 'content must be at most 100000 characters', type: 'too_big' }]);
    setup(vi.fn<Create>(async () => Promise.reject(error)));
    fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: 'x'.repeat(200_000) } });
    submitButton().focus();
    fireEvent.click(submitButton());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Message/)));
    expect(screen.getByLabelText(/^Message/).getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a plain detail above the button', async () => {
    const error = Object.assign(new Error('x'), { data: { httpStatus: 404, detail: 'Recipient not found: no user has this id' } });
    setup(vi.fn<Create>(async () => Promise.reject(error)));
    fireEvent.click(submitButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Recipient not found: no user has this id');
    expect(toasts()).toEqual([['error', 'Failed to create message']]);
  });
});
