import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.{ts,tsx}',
      'apps/*/bench/**/*.test.ts',
      'e2e/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default (one fewer than the cores) is one worker on a 2-core CI machine, where a file
    // keeps about half a core busy (it waits on Chromium, the server and the database). Two workers
    // took 0.66 of one's time on the same 18 files and passed; three failed journeys under load
    // (docs/decisions/0031).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
    reporters: ['default'],
  },
});
