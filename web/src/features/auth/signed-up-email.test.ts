import { afterEach, describe, expect, it } from 'vitest';
import { keepSignedUpEmail, releaseSignedUpEmail, takeSignedUpEmail } from './signed-up-email';

describe('the email handed from sign-up to sign-in', () => {
  afterEach(() => {
    releaseSignedUpEmail();
    sessionStorage.clear();
  });

  it('is given to the login form once, and to both of StrictMode’s initialiser calls', () => {
    keepSignedUpEmail('ann@example.test');
    expect(takeSignedUpEmail()).toBe('ann@example.test');
    expect(sessionStorage.length).toBe(0); // a reload starts empty
    expect(takeSignedUpEmail()).toBe('ann@example.test');
    releaseSignedUpEmail();
    expect(takeSignedUpEmail()).toBe('');
  });

  it('is empty when nobody just signed up', () => {
    expect(takeSignedUpEmail()).toBe('');
  });
});
