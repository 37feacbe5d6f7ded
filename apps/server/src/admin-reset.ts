import path from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv } from './config.ts';
import { boxed } from './console-box.ts';
import { openDatabase } from './db/client.ts';
import { resetPasswordOf } from './domain/admin-reset.ts';
import { runningServer } from './server-pid.ts';

/**
 * `npm run admin:reset -- --email you@example.com`: prints a new one-time
 * password for the user (the first administrator without --email), on the
 * same DATA_DIR / DATABASE_URL as `npm start`. With the built-in database the
 * app must be stopped first: its files open in one process at a time.
 */
const { values } = parseArgs({ options: { email: { type: 'string' } }, strict: true });
const config = configFromEnv();

if (!config.databaseUrl) {
  const pid = runningServer(config.dataDir);
  if (pid) {
    process.stderr.write(
      `The app is running (process ${pid}) on ${config.dataDir}: stop it first (Ctrl+C where it runs), then run this again.\n`,
    );
    process.exit(2);
  }
}

const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  waitMs: config.databaseWaitMs,
  log: { warn: (message) => process.stderr.write(`${message}\n`) },
});
try {
  const reset = await resetPasswordOf(database, values.email);
  if (!reset.ok) {
    process.stderr.write(`${reset.problem}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `\n${boxed([
        `New password for ${reset.email}: ${reset.password}`,
        'Shown only this once; sign in and change it. Its sessions were ended.',
      ])}\n\n`,
    );
  }
} finally {
  await database.close();
}
