import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  type ApiClient,
  adminClient,
  errorOf,
  type Factories,
  factories,
  type Row,
  uploadFile,
} from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Upload, download, rename, refusal and deletion of file bytes, over HTTP. */

const LIMIT = 4 * 1024 * 1024;
let server: TestServer;
let api: ApiClient;
let make: Factories;
let company: Row;

beforeAll(async () => {
  server = await startTestServer({ MAX_UPLOAD_BYTES: String(LIMIT) });
  api = adminClient(server);
  make = factories(api);
  company = await make.company({ name: 'Acme' });
});

afterAll(async () => server?.close());

async function download(id: number) {
  const response = await server.fetch(`/api/v1/files/${id}/content`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The names of the stored byte files and of leftover temporary files. */
async function onDisk() {
  const list = (dir: string) => readdir(path.join(server.dataDir, dir)).catch(() => [] as string[]);
  return { files: (await list('files')).sort(), tmp: await list('tmp') };
}

function refusedUpload(answer: Answer<unknown>, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  const error = errorOf(answer);
  expect(error.code).toBe(code);
  return error;
}

describe('upload and download', () => {
  it('answers the same bytes it was sent, with type, name and size', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const answer = await uploadFile(api, 'companies', company.id, bytes, 'Q3 report.pdf', 'application/pdf');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      entity: 'companies',
      recordId: company.id,
      name: 'Q3 report.pdf',
      size: bytes.length,
      contentType: 'application/pdf',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      version: 1,
    });
    const { response, bytes: received } = await download(answer.body.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Q3 report.pdf"; filename*=UTF-8''Q3%20report.pdf`,
    );
    expect(received.equals(bytes)).toBe(true);
  });

  it('keeps a name in any script, and offers an ASCII fallback', async () => {
    const file = await make.file('companies', company.id, randomBytes(100), 'Résumé – 2024.txt');
    expect(file.name).toBe('Résumé – 2024.txt');
    const { response } = await download(file.id);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _ 2024.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%80%93%202024.txt`,
    );
  });

  it('never takes a path from the file name', async () => {
    const file = await make.file('companies', company.id, randomBytes(10), '../../etc/passwd');
    expect(file.name).toBe('passwd');
    expect((await onDisk()).files).toContain(String(file.id));
  });

  it('lists the files of a record, renames one, and refuses writing what the server owns', async () => {
    const other = await make.company();
    const file = await make.file('companies', other.id, randomBytes(10), 'a.csv');
    const listed = await api.list('/api/v1/files', {
      'filter[entity][eq]': 'companies',
      'filter[recordId][eq]': other.id,
      select: 'name,size',
    });
    expect(listed.body.data).toEqual([{ id: file.id, name: 'a.csv', size: 10 }]);
    const renamed = await api.patch(`/api/v1/files/${file.id}`, { name: 'b.csv' }, 1);
    expect(renamed.body).toMatchObject({ name: 'b.csv', version: 2, size: 10 });
    expect((await download(file.id)).response.headers.get('content-disposition')).toMatch(/filename="b.csv"/);
    const resized = await api.patch(`/api/v1/files/${file.id}`, { size: 1 }, 2);
    expect(resized.status).toBe(400);
    expect(errorOf(resized).fields).toEqual({ size: 'Unknown field' });
  });
});

describe('refusals', () => {
  it('refuses a file over the limit with 413 and keeps nothing', async () => {
    const before = await api.list('/api/v1/files', { pageSize: 1 });
    const disk = await onDisk();
    const answer = await uploadFile(api, 'companies', company.id, randomBytes(LIMIT + 1024), 'big.bin');
    expect(refusedUpload(answer, 413, 'too_large').fields).toEqual({ file: 'Too large' });
    expect((await api.list('/api/v1/files', { pageSize: 1 })).body.total).toBe(before.body.total);
    expect(await onDisk()).toEqual({ files: disk.files, tmp: [] });
  });

  it('accepts a file of exactly the limit', async () => {
    const file = await make.file('companies', company.id, randomBytes(LIMIT), 'exact.bin');
    expect(file.size).toBe(LIMIT);
  });

  it('refuses programs by extension with 415', async () => {
    for (const name of ['setup.exe', 'SETUP.EXE', 'run.sh', 'macro.ps1']) {
      const answer = await uploadFile(api, 'companies', company.id, randomBytes(64), name);
      expect(refusedUpload(answer, 415, 'file_type_refused').fields, name).toEqual({
        file: 'This file type is not accepted',
      });
    }
  });

  it('refuses an upload to a record that does not exist, and keeps no bytes', async () => {
    const disk = await onDisk();
    const answer = await uploadFile(api, 'companies', 999_999, randomBytes(1000), 'lost.txt');
    expect(refusedUpload(answer, 400, 'validation_failed').fields).toHaveProperty('recordId');
    expect(await onDisk()).toEqual({ files: disk.files, tmp: [] });
  });

  it('refuses a bad target, a missing file part, or a body that is not multipart', async () => {
    const users = await uploadFile(api, 'users', 1, randomBytes(10), 'a.txt');
    expect(refusedUpload(users, 400, 'validation_failed').fields).toHaveProperty('entity');
    const noId = await api.send('POST', '/api/v1/files?entity=companies', { body: new FormData() });
    expect(refusedUpload(noId, 400, 'validation_failed').fields).toHaveProperty('recordId');
    const form = new FormData();
    form.append('other', new Blob([randomBytes(10)]), 'a.txt');
    const wrongPart = await api.send('POST', `/api/v1/files?entity=companies&recordId=${company.id}`, { body: form });
    expect(refusedUpload(wrongPart, 400, 'validation_failed').fields).toEqual({ file: 'Required' });
    const json = await api.post(`/api/v1/files?entity=companies&recordId=${company.id}`, { name: 'a' });
    refusedUpload(json, 415, 'unsupported_media_type');
  });
});

describe('delete', () => {
  it('removes the bytes with the file', async () => {
    const file = await make.file('companies', company.id, randomBytes(2048), 'gone.bin');
    expect((await onDisk()).files).toContain(String(file.id));
    expect((await api.delete(`/api/v1/files/${file.id}`, 1)).status).toBe(204);
    expect((await onDisk()).files).not.toContain(String(file.id));
    expect((await download(file.id)).response.status).toBe(404);
    expect((await api.get(`/api/v1/files/${file.id}`)).status).toBe(404);
  });
});
