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
    unstubEnvs: true,
  },
});
