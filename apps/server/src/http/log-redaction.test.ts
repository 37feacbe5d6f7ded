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
      config: configFromEnv({ DATA_DIR: dataDir, LOG_REQUESTS: 'true' }),
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

describe('request log by default', () => {
  it('is off at info and on at debug or with LOG_REQUESTS', async () => {
    expect(configFromEnv({}).logRequests).toBe(false);
    expect(configFromEnv({ LOG_LEVEL: 'debug' }).logRequests).toBe(true);
    expect(configFromEnv({ LOG_REQUESTS: 'true' }).logRequests).toBe(true);
    expect(configFromEnv({ LOG_LEVEL: 'debug', LOG_REQUESTS: 'false' }).logRequests).toBe(false);
    const lines: string[] = [];
    const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-log-'));
    const { database, close } = await openTestDatabase();
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
    try {
      const answer = await app.inject({ method: 'GET', url: '/api/v1/companies' });
      expect(answer.statusCode).toBe(401);
      expect(lines.join('')).not.toContain('/api/v1/companies');
    } finally {
      await app.close();
      await close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
