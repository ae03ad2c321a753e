import { ZGoogleSignInStart } from '@afterword/worker/contracts/auth';
import { describe, expect, it, vi } from 'vitest';
import { GOOGLE_STATE_KEY, checkHandBack, keptClientState, parseOAuthFragment, spendClientState, startGoogleSignIn, type HandBack } from './oauth-fragment';

const KEPT = 'kept-state-0123456789abcdefghijklmnopqrstuv';
const OWN_TOKEN = `#access_token=own-token&token_type=bearer&expires_in=2592000&state=${KEPT}`;

/** The login page's decision for `hash`, with Google sign-in on or off in the build and what this tab kept. */
function decide(hash: string, { googleEnabled = true, keptState = KEPT as string | null } = {}): HandBack {
  return checkHandBack(parseOAuthFragment(hash), { googleEnabled, keptState });
}

describe('parseOAuthFragment', () => {
  it('reads the token and the state the callback hands back', () => {
    expect(parseOAuthFragment(OWN_TOKEN)).toEqual({ kind: 'token', accessToken: 'own-token', state: KEPT });
  });

  it('reads an error and its state, with a fallback for an empty message', () => {
    expect(parseOAuthFragment(`#error=Google%20sign-in%20failed.&state=${KEPT}`)).toEqual({ kind: 'error', message: 'Google sign-in failed.', state: KEPT });
    expect(parseOAuthFragment('#error=')).toEqual({ kind: 'error', message: 'Google sign-in failed.', state: null });
  });

  it('finds nothing in an empty or unrelated fragment', () => {
    expect(parseOAuthFragment('')).toBeNull();
    expect(parseOAuthFragment('#pricing')).toBeNull();
  });
});

describe('the login page takes a hand-back only from the sign-in this tab started', () => {
  it('takes the token when Google sign-in is on and the state is the one this tab kept', () => {
    expect(decide(OWN_TOKEN)).toEqual({ kind: 'token', accessToken: 'own-token' });
  });

  it("refuses a planted link with someone else's token when this tab started no sign-in", () => {
    expect(decide('#access_token=attackers-token&token_type=bearer&expires_in=2592000', { keptState: null })).toEqual({ kind: 'refused' });
    expect(decide(`#access_token=attackers-token&state=${KEPT}`, { keptState: null })).toEqual({ kind: 'refused' });
  });

  it('refuses a planted token with a made-up state, or with none, while a sign-in is under way', () => {
    expect(decide('#access_token=attackers-token&state=made-up-state-abcdefghijklmnop')).toEqual({ kind: 'refused' });
    expect(decide('#access_token=attackers-token')).toEqual({ kind: 'refused' });
    expect(decide(`#access_token=attackers-token&state=${KEPT.slice(0, -1)}`)).toEqual({ kind: 'refused' });
  });

  it('ignores every hand-back when Google sign-in is off in the build, even one with the kept state', () => {
    expect(decide(OWN_TOKEN, { googleEnabled: false })).toEqual({ kind: 'ignored' });
    expect(decide(`#error=boom&state=${KEPT}`, { googleEnabled: false })).toEqual({ kind: 'ignored' });
  });

  it('shows the error of its own hand-back, and refuses an error message it did not ask for', () => {
    expect(decide(`#error=Google%20sign-in%20failed.%20Please%20try%20again.&state=${KEPT}`)).toEqual({
      kind: 'error',
      message: 'Google sign-in failed. Please try again.',
    });
    expect(decide('#error=Your%20account%20is%20locked%2C%20call%20us')).toEqual({ kind: 'refused' });
  });

  it('has nothing to do without a hand-back in the URL', () => {
    expect(decide('')).toBeNull();
    expect(decide('', { googleEnabled: false })).toBeNull();
  });
});

describe('the kept state', () => {
  it('is made fresh on each start, fits the server contract and travels as client_state', () => {
    const go = vi.fn<(url: string) => void>();
    startGoogleSignIn({ storage: sessionStorage, go });
    const first = keptClientState(sessionStorage)!;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ZGoogleSignInStart.safeParse({ client_state: first }).success).toBe(true);
    expect(go).toHaveBeenCalledWith(`/api/auth/google?client_state=${first}`);

    startGoogleSignIn({ storage: sessionStorage, go });
    expect(keptClientState(sessionStorage)).not.toBe(first);
    expect(sessionStorage.getItem(GOOGLE_STATE_KEY)).toBe(keptClientState(sessionStorage));
  });

  it('is spent by the first hand-back: the same fragment is refused afterwards', () => {
    startGoogleSignIn({ storage: sessionStorage, go: () => undefined });
    const state = keptClientState(sessionStorage);
    const hash = `#access_token=own-token&state=${state}`;
    expect(decide(hash, { keptState: keptClientState(sessionStorage) })).toEqual({ kind: 'token', accessToken: 'own-token' });
    spendClientState(sessionStorage);
    expect(keptClientState(sessionStorage)).toBeNull();
    expect(decide(hash, { keptState: keptClientState(sessionStorage) })).toEqual({ kind: 'refused' });
  });
});
