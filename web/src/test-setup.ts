import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts signed out, with no onboarding flag and no toasts.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
