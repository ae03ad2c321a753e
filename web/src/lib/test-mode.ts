/**
 * docs/product.md "Canaries and check-ins": a local flag (localStorage `testMode` = 'true') that enables
 * local-only simulations.
 */
export const TEST_MODE_KEY = 'testMode';

export function isTestMode(): boolean {
  try {
    return localStorage.getItem(TEST_MODE_KEY) === 'true';
  } catch {
    return false;
  }
}
