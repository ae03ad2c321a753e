import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../lib/session';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { LoginForm, LOGIN_FALLBACK_ERROR } from './login-form';

type LoginFn = Parameters<typeof LoginForm>[0]['login'];

async function renderLogin(login: LoginFn, onSignedIn = vi.fn()) {
  renderWithRouter(() => <LoginForm login={login} onSignedIn={onSignedIn} />, '/login');
  await screen.findByRole('button', { name: 'Sign in' });
  return onSignedIn;
}

function fillAndSubmit() {
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginForm', () => {
  it('disables the button, reads Signing in… and ignores repeat submits while pending', async () => {
    let fail: (e: unknown) => void = () => undefined;
    const login = vi.fn<LoginFn>(
      () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    );
    await renderLogin(login);
    fillAndSubmit();
    const pending = (await screen.findByRole('button', { name: 'Signing in…' })) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    fireEvent.submit(pending.closest('form')!);
    expect(login).toHaveBeenCalledTimes(1);

    fail(new Error('network down'));
    expect((await screen.findByRole('alert')).textContent).toBe(LOGIN_FALLBACK_ERROR);
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows the server's detail when there is one", async () => {
    await renderLogin(
      vi.fn<LoginFn>(async () => {
        throw { data: { detail: 'Invalid email or password' } };
      }),
    );
    fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
  });

  it('stores the token and moves on after a successful sign-in', async () => {
    const onSignedIn = await renderLogin(vi.fn<LoginFn>(async () => ({ access_token: 'tok-1', token_type: 'bearer', expires_in: 60 })));
    fillAndSubmit();
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(localStorage.getItem(TOKEN_KEY)).toBe('tok-1');
  });

  it('validates email format and required password before sending', async () => {
    const login = vi.fn<LoginFn>();
    await renderLogin(login);
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(login).not.toHaveBeenCalled();
  });

  it('links to sign-up with the exact text', async () => {
    await renderLogin(vi.fn<LoginFn>());
    expect(screen.getByRole('link', { name: 'Need an account? Sign up' }).getAttribute('href')).toBe('/signup');
  });

  it('shows Login with Google only when VITE_GOOGLE_SIGNIN is exactly "true"', async () => {
    vi.stubEnv('VITE_GOOGLE_SIGNIN', 'yes');
    const first = renderWithRouter(() => <LoginForm login={vi.fn<LoginFn>()} onSignedIn={vi.fn()} />);
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByRole('button', { name: 'Login with Google' })).toBeNull();
    first.unmount();

    vi.stubEnv('VITE_GOOGLE_SIGNIN', 'true');
    renderWithRouter(() => <LoginForm login={vi.fn<LoginFn>()} onSignedIn={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Login with Google' })).toBeTruthy();
  });
});
