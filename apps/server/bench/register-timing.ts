/**
 * `npm run bench:register` (also from the root): does registering an email
 * already in use take as long as registering a new one? Registering a new
 * email hashes its password (argon2id); skipping that for an email in use
 * would tell, by the time the answer takes, that the email has an account.
 * A timing, so a benchmark and not a test: load on the machine only slows
 * requests down, and a test must not depend on it.
 *
 * Starts the real application on an in-memory PGlite, then, round by round,
 * times one password hashing, a registration of a new email, and the same
 * registration again (the email now in use by a pending request). Each
 * registration comes from a loopback address of its own, under the
 * per-address limit. Prints the figures, and exits 1 when the fastest
 * registration of an email in use takes less than half the fastest hashing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword } from '../src/auth/passwords.ts';
import { configFromEnv } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { bootstrapAccounts } from '../src/domain/bootstrap.ts';
import { buildApp } from '../src/http/app.ts';
import { postFrom, strongPassword, uniqueEmail } from '../src/testing/accounts.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 200) {
  console.error('Usage: npm run bench:register -- [--rounds 10] (1 to 200)');
  process.exit(2);
}

const ADMIN_EMAIL = 'bench-admin@bench.example';
const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-bench-register-'));
const database = await openDatabase({});
const config = configFromEnv({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ADMIN_EMAIL,
  ADMIN_PASSWORD: 'a bench administrator passphrase',
});
await bootstrapAccounts(database, config);
const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

let addresses = 0;
/** Milliseconds a registration takes, from an address no other registration used. */
async function register(email: string): Promise<number> {
  addresses += 1;
  const from = `127.0.${1 + Math.floor(addresses / 250)}.${1 + (addresses % 250)}`;
  const started = performance.now();
  const answer = await postFrom(from, url, '/api/v1/auth/register', {
    email,
    firstName: 'Timed',
    lastName: 'Request',
    password: strongPassword(),
  });
  const elapsed = performance.now() - started;
  if (answer.status !== 202) throw new Error(`Registering answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return elapsed;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const kinds = {
  'one password hashing': [] as number[],
  'register a new email': [] as number[],
  'register it again (in use)': [] as number[],
};
try {
  for (let round = 0; round < rounds; round++) {
    // An email of its own each round: mails to one account are limited to three an hour.
    const email = uniqueEmail('timed');
    kinds['one password hashing'].push(await timed(() => hashPassword(strongPassword())));
    kinds['register a new email'].push(await register(email));
    kinds['register it again (in use)'].push(await register(email));
  }
} finally {
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}

const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
const median = (list: number[]) => sorted(list)[Math.floor(list.length / 2)] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`${rounds} rounds; fastest / median / slowest`);
for (const [kind, times] of Object.entries(kinds)) {
  console.log(
    `  ${kind.padEnd(42)} ${ms(Math.min(...times)).padStart(10)} ${ms(median(times)).padStart(10)} ${ms(Math.max(...times)).padStart(10)}`,
  );
}
const hashing = Math.min(...kinds['one password hashing']);
const inUse = Math.min(...kinds['register it again (in use)']);
const ok = inUse > hashing * 0.5;
console.log(
  ok
    ? `An email in use costs a hashing too: its fastest registration (${ms(inUse)}) is over half the fastest hashing (${ms(hashing)}).`
    : `An email in use answers faster than half a hashing (${ms(inUse)} against ${ms(hashing)}): the time tells it has an account.`,
);
process.exitCode = ok ? 0 : 1;
