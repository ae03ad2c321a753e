import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Component tests only: no router plugin, so tests never rewrite routeTree.gen.ts.
export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
    restoreMocks: true,
    // Two files at a time: vitest's default is one fewer than the cores (one here), and a component test file
    // spends much of its time building its happy-dom window and importing, which a second file overlaps
    // (88 s → 53 s on this two-core machine).
    maxWorkers: 2,
    unstubEnvs: true,
  },
});
