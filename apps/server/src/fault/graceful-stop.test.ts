import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type ServerData,
  serverData,
  signInAsAdmin,
  startServerProcess,
  stopServerProcesses,
} from '../testing/server-process.ts';
import { contactsCsv, startUpload } from '../testing/upload.ts';

/**
 * SIGTERM while requests are in progress (a deploy, a container stop): they
 * all finish with their answer, new connections are refused, and the process
 * exits 0 by itself.
 */
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

const folders: ServerData[] = [];
afterAll(async () => {
  await stopServerProcesses();
  await Promise.all(folders.map((folder) => folder.remove()));
});

/** A server process on data of its own, with its address, port and an administrator's token. */
async function startServer() {
  const data = await serverData(kind);
  folders.push(data);
  // Log level info: each request's arrival is logged, which is how a test knows it is in progress.
  const server = await startServerProcess(data, { LOG_LEVEL: 'info' });
  return { server, port: Number(new URL(server.url).port), token: await signInAsAdmin(server.url) };
}

const importPath = '/api/v1/contacts/import';
const importArrived = /"url":"\/api\/v1\/contacts\/import".*"msg":"incoming request"/;

/** Whether a new TCP connection to the port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe(`SIGTERM under load (${kind})`, () => {
  it('finishes the requests in progress with 2xx, refuses new connections, exits 0', { timeout: 120_000 }, async () => {
    const { server, port, token } = await startServer();
    const city = `Stopville ${randomBytes(4).toString('hex')}`;

    // An upload sent by half: the server has begun it and cannot finish before the rest comes.
    const upload = await startUpload(
      { url: server.url, token },
      importPath,
      { name: 'contacts.csv', content: contactsCsv(300, city) },
      { pause: true },
    );
    const listPath = `/api/v1/contacts?pageSize=50&filter[city][eq]=${encodeURIComponent(city)}`;
    const lists = Array.from({ length: 10 }, () =>
      fetch(`${server.url}${listPath}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    await server.waitForOutput(importArrived);
    await server.waitForOutput(/"url":"\/api\/v1\/contacts\?pageSize=50[^"]*".*"msg":"incoming request"/, 10);

    server.child.kill('SIGTERM');
    await vi.waitFor(async () => expect(await accepts(port)).toBe(false), { timeout: 30_000, interval: 20 });
    upload.resume();

    const answers = await Promise.all(lists);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(await upload.answer).toMatchObject({ status: 201 });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await accepts(port)).toBe(false);
  });

  it('a second SIGTERM stops at once, without the request that holds the stop', { timeout: 120_000 }, async () => {
    const { server, port, token } = await startServer();
    const upload = await startUpload(
      { url: server.url, token },
      importPath,
      { name: 'contacts.csv', content: contactsCsv(10, 'Nowhere') },
      { pause: true },
    );
    await server.waitForOutput(importArrived);
    server.child.kill('SIGTERM');
    await vi.waitFor(async () => expect(await accepts(port)).toBe(false), { timeout: 30_000, interval: 20 });
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    await expect(upload.answer).rejects.toThrow();
  });
});
