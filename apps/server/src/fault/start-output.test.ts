import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerData, serverData, startServerProcess, stopServerProcesses } from '../testing/server-process.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../testing/test-server.ts';

/**
 * What `npm start` prints (issue 13, item 14): a short human line per start,
 * no line per request at info, and the sign-in box last; `npm run
 * admin:reset` gives a lost password a new one-time one.
 */
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = path.resolve(serverRoot, '../..');

const folders: ServerData[] = [];
afterAll(async () => {
  await stopServerProcesses();
  await Promise.all(folders.map((folder) => folder.remove()));
});

/** The settings `npm start` runs with: human lines, no request lines. */
const startEnv = { LOG_FORMAT: 'text', LOG_REQUESTS: 'false' };

/** Runs `npm run admin:reset`'s script on the data; its exit code and output. */
function adminReset(data: ServerData, args: string[]): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'ADMIN_PASSWORD']) delete env[name];
  const child = spawn(process.execPath, ['dist/admin-reset.js', ...args], {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, DATA_DIR: data.dataDir, ...(data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : {}) },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

function signIn(url: string, password: string) {
  return fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password }),
  });
}

describe('the start output', () => {
  it('is a few human lines, then the sign-in box, and no line per request', async () => {
    const data = await serverData(kind);
    folders.push(data);
    const server = await startServerProcess(data, startEnv);
    await server.waitForOutput(/└─+┘/);
    const started = server.output();
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${server.url}/api/v1/companies`)).status).toBe(401);
      expect((await fetch(`${server.url}/`)).status).toBeLessThan(500);
    }
    // Stopped with Ctrl+C: the requests above are long answered, so any line of theirs is written by now.
    expect(await server.stop('SIGINT')).toEqual({ code: 0, signal: null });
    const lines = started.split('\n').filter((line) => line.trim() !== '');
    const boxStart = lines.findIndex((line) => line.startsWith('┌'));
    expect(boxStart).toBeGreaterThanOrEqual(0);
    // Before the box: short lines for people, no JSON.
    expect(lines.slice(0, boxStart).length).toBeLessThanOrEqual(3);
    for (const line of lines.slice(0, boxStart)) expect(line).not.toMatch(/^\{/);
    const box = lines.slice(boxStart).join('\n');
    expect(box).toContain(`Data Platform is ready on ${server.url}`);
    expect(box).toContain(`Sign in as ${TEST_ADMIN_EMAIL}`);
    expect(box).toContain('Ctrl+C');
    expect(lines.at(-1)).toMatch(/^└─+┘$/);
    // After the box, only the stop.
    const after = server.output().slice(started.length);
    expect(after).not.toContain('/api/v1/companies');
    expect(after).not.toMatch(/^\{/m);
    expect(after).toMatch(/SIGINT/);
  });
});

describe('npm run admin:reset', () => {
  it('is a documented script of the repository', () => {
    const scripts = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts;
    expect(scripts['admin:reset']).toContain('admin:reset');
  });

  it('prints a new one-time password that signs in, and the old one no longer does', async () => {
    const data = await serverData(kind);
    folders.push(data);
    const first = await startServerProcess(data, startEnv);
    expect((await signIn(first.url, TEST_ADMIN_PASSWORD)).status).toBe(200);
    if (kind === 'pglite') {
      // The built-in database opens in one process at a time: the reset asks to stop the app first.
      const refused = await adminReset(data, ['--email', TEST_ADMIN_EMAIL]);
      expect(refused.code).toBe(2);
      expect(refused.output).toMatch(/stop it first/);
      await first.stop('SIGINT');
    }
    const reset = await adminReset(data, ['--email', TEST_ADMIN_EMAIL.toUpperCase()]);
    expect(reset.code, reset.output).toBe(0);
    const password = reset.output.match(/New password for (\S+): (\S+)/);
    expect(password?.[1]).toBe(TEST_ADMIN_EMAIL);
    const url = kind === 'pglite' ? (await startServerProcess(data, startEnv)).url : first.url;
    expect((await signIn(url, password?.[2] as string)).status).toBe(200);
    expect((await signIn(url, TEST_ADMIN_PASSWORD)).status).toBe(401);
    const unknown = await adminReset(data, ['--email', 'nobody@test.example']);
    expect(unknown.code).toBe(kind === 'pglite' ? 2 : 1);
  });
});

describe('dependencies', () => {
  it('every package of the lock file runs on the oldest Node the README allows (20.19)', async () => {
    // npm's own range grammar, from the package npm itself uses.
    const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };
    const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    };
    const needNewer = Object.entries(lock.packages)
      .filter(([, pkg]) => pkg.engines?.node && !semver.satisfies('20.19.0', pkg.engines.node))
      .map(([name, pkg]) => `${name}@${pkg.version} needs node ${pkg.engines?.node}`);
    expect(needNewer).toEqual([]);
    expect(
      semver.satisfies('20.19.0', JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).engines.node),
    ).toBe(true);
  });
});
