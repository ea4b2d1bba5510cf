// Component tests of the renderer: Vitest + Testing Library in happy-dom (test/unit/renderer/**/*.test.tsx).
// Engine and E2E tests run under node's test runner (test/run.js); these run with `npm run test:ui`.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    include: ['test/unit/renderer/**/*.test.tsx'],
    setupFiles: ['test/unit/renderer/setup.ts'],
    restoreMocks: true,
    pool: 'threads',
    maxWorkers: 2,
    // The machine running the suite is shared (2 cores, several test runs at once): a slow test is not a failing one.
    testTimeout: 30_000,
  },
});
