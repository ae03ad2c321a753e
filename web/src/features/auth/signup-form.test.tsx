import { US_STATES, EU_MEMBER_STATES } from '@afterword/worker/contracts/regions';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { SignupForm, SIGNUP_FALLBACK_ERROR } from './signup-form';

const noop = () => undefined;

async function renderSignup(register = vi.fn(async () => ({}))) {
  renderWithRouter(() => <SignupForm register={register} onRegistered={noop} />);
  await screen.findByRole('button', { name: 'Create account' });
  return register;
}

function chooseRegion(region: string) {
  fireEvent.change(screen.getByLabelText('Legal Region'), { target: { value: region } });
}

function fillCredentials() {
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'a long enough password' } });
}

describe('SignupForm', () => {
  it('defaults to INTL-General with an optional free-text jurisdiction', async () => {
    await renderSignup();
    expect((screen.getByLabelText('Legal Region') as HTMLSelectElement).value).toBe('INTL-General');
    expect(screen.getByLabelText('Jurisdiction (optional)').getAttribute('placeholder')).toBe('e.g., Ontario, Canada');
  });

  it('shows a required US state select for US-HIPAA and a member-state select for EU-GDPR', async () => {
    await renderSignup();
    chooseRegion('US-HIPAA');
    const state = screen.getByLabelText(/^State/) as HTMLSelectElement;
    expect(state.required).toBe(true);
    expect([...state.options].map((o) => o.value).filter(Boolean)).toEqual([...US_STATES]);

    chooseRegion('EU-GDPR');
    const member = screen.getByLabelText(/^Member state/) as HTMLSelectElement;
    expect([...member.options].map((o) => o.value).filter(Boolean)).toEqual([...EU_MEMBER_STATES]);
    expect(screen.queryByLabelText(/^State/)).toBeNull();
  });

  it('clears the jurisdiction when the region changes', async () => {
    await renderSignup();
    chooseRegion('US-HIPAA');
    fireEvent.change(screen.getByLabelText(/^State/), { target: { value: 'CA' } });
    chooseRegion('INTL-General');
    expect((screen.getByLabelText('Jurisdiction (optional)') as HTMLInputElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('Jurisdiction (optional)'), { target: { value: 'Ontario' } });
    chooseRegion('US-HIPAA');
    expect((screen.getByLabelText(/^State/) as HTMLSelectElement).value).toBe('');
  });

  it('omits a blank jurisdiction and sends a trimmed one', async () => {
    const register = await renderSignup();
    fillCredentials();
    fireEvent.change(screen.getByLabelText('Jurisdiction (optional)'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register.mock.calls[0]).toEqual([{ email: 'ada@example.com', password: 'a long enough password', data_policy_region: 'INTL-General' }]);
  });

  it('refuses US-HIPAA without a state, before sending anything', async () => {
    const register = await renderSignup();
    fillCredentials();
    chooseRegion('US-HIPAA');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('US-HIPAA requires a US state from the list')).toBeTruthy();
    expect(register).not.toHaveBeenCalled();
  });

  it('reads Creating account… while pending and shows the fallback on failure', async () => {
    let fail: (e: unknown) => void = noop;
    const register = await renderSignup(
      vi.fn(
        () =>
          new Promise((_, reject) => {
            fail = reject;
          }),
      ),
    );
    fillCredentials();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const pending = await screen.findByRole('button', { name: 'Creating account…' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(pending.closest('form')!);
    expect(register).toHaveBeenCalledTimes(1);
    fail(new Error('network'));
    expect((await screen.findByRole('alert')).textContent).toBe(SIGNUP_FALLBACK_ERROR);
  });
});
