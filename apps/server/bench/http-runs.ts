/**
 * What the HTTP benches share: autocannon runs, and starting, waiting for,
 * signing in to and stopping a server in a process of its own.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon, { type Request } from 'autocannon';
import { benchAccount } from './prepare.ts';
import { type Result, round } from './report.ts';

/**
 * One autocannon run, for `seconds` or for `amount` requests; latencies from
 * every response, 2xx or not, in milliseconds.
 */
export async function measure(
  url: string,
  scenario: { name: string; requests: Request[] },
  connections: number,
  seconds: number | undefined,
  amount?: number,
): Promise<Result> {
  const latencies: number[] = [];
  let non2xx = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, ...(amount ? { amount } : { duration: seconds }), requests: scenario.requests },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (statusCode < 200 || statusCode >= 300) non2xx++;
    });
  });
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0);
  return {
    scenario: scenario.name,
    connections,
    requests: latencies.length,
    rps: Math.round(latencies.length / result.duration),
    p50: at(50),
    p90: at(90),
    p99: at(99),
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const found = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(found));
    });
  });
}

export async function waitUntilReady(url: string, child: ChildProcess, healthPath = '/api/health'): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}${healthPath}`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server at ${url} did not become ready within 3 minutes`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A bearer token for the bench's administrator, from the real sign-in route. */
export async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(benchAccount),
  });
  if (!response.ok) throw new Error(`Signing in: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** The cursor that continues after row `depth` of the name order, found by walking 1,000 rows a page. */
export async function cursorAt(url: string, headers: Record<string, string>, depth: number): Promise<string> {
  let cursor: string | null = null;
  for (let read = 0; read < depth; read += 1000) {
    const query = new URLSearchParams({ sort: 'name', pageSize: '1000', select: 'id' });
    if (cursor) query.set('cursor', cursor);
    const response = await fetch(`${url}/api/v1/companies?${query}`, { headers });
    if (!response.ok) throw new Error(`Walking to the cursor: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { nextCursor: string | null };
    if (!page.nextCursor) throw new Error(`The list ends before row ${depth}`);
    cursor = page.nextCursor;
  }
  return cursor as string;
}
