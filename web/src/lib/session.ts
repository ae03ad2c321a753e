/**
 * docs/product.md "Accounts and sign-in", docs/product.md "The app shell and navigation": the browser keeps the
 * session token and the onboarding flag under these keys.
 */
export const TOKEN_KEY = 'token';
export const ONBOARDING_KEY = 'hasSeenOnboarding';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

export function hasSeenOnboarding(): boolean {
  return localStorage.getItem(ONBOARDING_KEY) === 'true';
}

const onboardingListeners = new Set<() => void>();

export function markOnboardingSeen(): void {
  localStorage.setItem(ONBOARDING_KEY, 'true');
  for (const l of onboardingListeners) l();
}

/** For useSyncExternalStore: told when the welcome is closed in this tab. */
export function subscribeOnboarding(listener: () => void): () => void {
  onboardingListeners.add(listener);
  return () => onboardingListeners.delete(listener);
}
