import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other (docs/decisions/0031):
 * - `units-and-server`: the shared package's, the web app's and the server's tests, on two workers (one
 *   fewer than the cores where there are more). A file mostly waits on the server and the database, so two
 *   share a 2-core machine well: 0.66 of one worker's time on the same files.
 * - `journeys`: the browser journeys (`e2e/`), one file at a time, alone on the machine. Each drives
 *   Chromium against a server of its own; two at once on 2 cores failed journeys on time-outs in CI
 *   (sessions 10 and 12), never on one.
 */
const parallel = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'units-and-server',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'apps/*/bench/**/*.test.ts'],
          maxWorkers: parallel,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'journeys',
          include: ['e2e/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
