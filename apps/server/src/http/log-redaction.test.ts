import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { openTestDatabase } from '../testing/test-server.ts';
import { buildApp } from './app.ts';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/reset-password?token=abc123&lang=fr')).toBe('/reset-password?token=[redacted]&lang=fr');
    expect(redactUrl('/register?lang=en&Token=x')).toBe('/register?lang=en&Token=[redacted]');
    expect(redactUrl('/x?%74oken=secret')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/api/v1/companies?filter[name][eq]=token')).toBe('/api/v1/companies?filter[name][eq]=token');
    expect(redactUrl('/plain')).toBe('/plain');
    expect(redactUrl('/x?%E0%A4%A=1&token')).toBe('/x?%E0%A4%A=1&token');
  });
});

describe('request log', () => {
  const lines: string[] = [];
  let close: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-log-'));
    const { database, close: closeDatabase } = await openTestDatabase();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({
      config: configFromEnv({ DATA_DIR: dataDir }),
      database,
      logger: { level: 'info', stream },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    close = async () => {
      await app.close();
      await closeDatabase();
      await rm(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  it('never holds a reset link token or a bearer token', async () => {
    const secret = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0';
    await fetch(`${url}/reset-password?token=${secret}`);
    await fetch(`${url}/api/v1/companies`, { headers: { authorization: `Bearer ${secret}` } });
    const log = lines.join('');
    expect(log).toContain('/reset-password?token=[redacted]');
    expect(log).toContain('/api/v1/companies');
    expect(log).not.toContain(secret);
  });
});
