import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
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
import { entry, zip } from '../testing/zip.ts';

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

/** Bytes that begin as a PDF does, `size` long. */
function pdf(size: number): Buffer {
  const head = Buffer.from('%PDF-1.7\n');
  return Buffer.concat([head, randomBytes(size - head.length)]);
}

const text = (content: string) => Buffer.from(content, 'utf8');

/** An Office Open XML package with a content types part and the given parts. */
async function office(...parts: string[]): Promise<Buffer> {
  const types = await entry('[Content_Types].xml', '<?xml version="1.0"?><Types/>');
  return zip([types, ...(await Promise.all(parts.map((name) => entry(name, '<x/>'))))]);
}

/** A workbook as a spreadsheet program writes it. */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Model').addRow(['IRR', 0.21]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

function refusedUpload(answer: Answer<unknown>, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  const error = errorOf(answer);
  expect(error.code).toBe(code);
  return error;
}

describe('upload and download', () => {
  it('answers the same bytes it was sent, with type, name and size', async () => {
    const bytes = pdf(3 * 1024 * 1024);
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
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(received.equals(bytes)).toBe(true);
  });

  it('keeps a name in any script, and offers an ASCII fallback', async () => {
    const file = await make.file('companies', company.id, text('CV'), "Résumé – Q1 (draft*) l'été 2024.txt");
    expect(file.name).toBe("Résumé – Q1 (draft*) l'été 2024.txt");
    const { response } = await download(file.id);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _ Q1 (draft*) l'_t_ 2024.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%80%93%20Q1%20%28draft%2A%29%20l%27%C3%A9t%C3%A9%202024.txt`,
    );
  });

  it('never takes a path from the file name', async () => {
    const file = await make.file('companies', company.id, text('x'), '../../etc/passwd.txt');
    expect(file.name).toBe('passwd.txt');
    expect((await onDisk()).files).toContain(String(file.id));
    const windows = await make.file('companies', company.id, text('x'), 'C:\\Users\\ada\\notes.txt');
    expect(windows.name).toBe('notes.txt');
  });

  it('lists the files of a record, renames one, and refuses writing what the server owns', async () => {
    const other = await make.company();
    const file = await make.file('companies', other.id, text('a,b\n1,2\n3\n'), 'a.csv');
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
    const before = await api.list('/api/v1/files', { pageSize: 1, count: 'exact' });
    const disk = await onDisk();
    const answer = await uploadFile(api, 'companies', company.id, randomBytes(LIMIT + 1024), 'big.bin');
    expect(refusedUpload(answer, 413, 'too_large').fields).toEqual({ file: 'Too large' });
    expect((await api.list('/api/v1/files', { pageSize: 1, count: 'exact' })).body.total).toBe(before.body.total);
    expect(await onDisk()).toEqual({ files: disk.files, tmp: [] });
  });

  it('accepts a file of exactly the limit', async () => {
    const file = await make.file('companies', company.id, pdf(LIMIT), 'exact.pdf');
    expect(file.size).toBe(LIMIT);
  });

  it('refuses with 415 what is not an accepted document by its bytes, or whose name does not match them', async () => {
    const program = Buffer.concat([Buffer.from('MZ'), randomBytes(200)]);
    const refused: [Uint8Array, string, RegExp][] = [
      [program, 'setup.exe', /not accepted/],
      [program, 'report.pdf', /not accepted/],
      [randomBytes(64), 'data.bin', /not accepted/],
      [text('#!/bin/sh\nrm -rf /'), 'run.sh', /must end in .csv, .txt/],
      [text('<script>alert(1)</script>'), 'page.html', /must end in/],
      [text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.svg', /must end in/],
      [text('alert(1)'), 'app.js.', /must end in/],
      [text('export {}'), 'module.mjs', /must end in/],
      [text('<hta:application/>'), 'tool.hta', /must end in/],
      [Buffer.concat([Buffer.from([0x4c, 0, 0, 0]), randomBytes(60)]), 'shortcut.lnk', /not accepted/],
      [text('a,b\n'), 'table.pdf', /must end in/],
      [pdf(100), 'report.txt', /PDF, so its name must end in .pdf/],
      [pdf(100), 'report', /must end in .pdf/],
      [text('nul\0inside'), 'notes.txt', /not accepted/],
      [Buffer.from([0x61, 0xff, 0xfe, 0x62]), 'latin.csv', /not accepted/],
      [await office('word/document.xml', 'word/vbaProject.bin'), 'macro.docm', /macros/],
      [await office('word/document.xml', 'word/vbaProject.bin'), 'macro.docx', /macros/],
      [await office('xl/workbook.xml'), 'book.docx', /Excel workbook, so its name must end in .xlsx/],
    ];
    for (const [bytes, name, message] of refused) {
      const answer = await uploadFile(api, 'companies', company.id, bytes, name, 'application/pdf');
      const error = refusedUpload(answer, 415, 'file_type_refused');
      expect(error.message, name).toMatch(message);
      expect(error.fields, name).toEqual({ file: error.message });
    }
    expect(await onDisk()).toMatchObject({ tmp: [] });
  });

  it('refuses a name with control or text direction characters, or longer than 255 characters', async () => {
    for (const name of ['report\u202Efdp.exe', 'a\u0007b.txt', `${'n'.repeat(252)}.txt`, '..']) {
      const answer = await uploadFile(api, 'companies', company.id, text('x'), name);
      expect(refusedUpload(answer, 400, 'validation_failed').fields, name).toHaveProperty('file');
    }
    expect((await uploadFile(api, 'companies', company.id, text('x'), `${'n'.repeat(251)}.txt`)).status).toBe(201);
  });

  it('refuses an upload to a record that does not exist, and keeps no bytes', async () => {
    const disk = await onDisk();
    const answer = await uploadFile(api, 'companies', 999_999, text('lost'), 'lost.txt');
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

describe('types', () => {
  it('stores the type found in the bytes, whatever the client claims, and serves it as an attachment', async () => {
    const accepted: [Uint8Array, string, string][] = [
      [pdf(100), 'deck.PDF', 'application/pdf'],
      [
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(50)]),
        'logo.png',
        'image/png',
      ],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(50)]), 'photo.jpeg', 'image/jpeg'],
      [Buffer.concat([Buffer.from('GIF89a'), randomBytes(50)]), 'chart.gif', 'image/gif'],
      [Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), randomBytes(50)]), 'chart.webp', 'image/webp'],
      [
        await office('word/document.xml'),
        'memo.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      [await workbook(), 'model.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      [
        await office('ppt/presentation.xml'),
        'pitch.pptx',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      ],
      [
        Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), randomBytes(50)]),
        'old.xls',
        'application/vnd.ms-excel',
      ],
      [zip([await entry('a.txt', 'a'), await entry('b/c.pdf', 'c')]), 'data room.zip', 'application/zip'],
      [text('\uFEFFname,amount\r\nAcme,5\r\n'), 'list.csv', 'text/csv; charset=utf-8'],
      [text('# Notes\n\tIndented, accents é, emoji 🚀\n'), 'notes.md', 'text/plain; charset=utf-8'],
      [new Uint8Array(), 'empty.txt', 'text/plain; charset=utf-8'],
    ];
    for (const [bytes, name, type] of accepted) {
      const answer = await uploadFile(api, 'companies', company.id, bytes, name, 'text/html\u0001');
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect(answer.body.contentType, name).toBe(type);
      const { response, bytes: received } = await download(answer.body.id);
      expect(response.headers.get('content-type'), name).toBe(type);
      expect(response.headers.get('content-disposition'), name).toMatch(/^attachment; /);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(received.equals(Buffer.from(bytes)), name).toBe(true);
    }
  });

  it('ignores a part type with control characters: the file downloads with the type of its bytes', async () => {
    const boundary = 'b0undary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="memo.txt"\r\n` +
          'Content-Type: text/html\u0001\u0007; x=<script>\r\n\r\n',
      ),
      text('plain words'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = await api.send<Row>('POST', `/api/v1/files?entity=companies&recordId=${company.id}`, {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.contentType).toBe('text/plain; charset=utf-8');
    const { response, bytes } = await download(answer.body.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(bytes.toString()).toBe('plain words');
  });

  it('downloads a file stored with a bad type as bytes, under a name that opens as what it is', async () => {
    const file = await make.file('companies', company.id, text('<b>hi</b>'), 'page.txt');
    for (const stored of ['text/html\u0001\r\nSet-Cookie: a=b', 'text/html', 'image/svg+xml']) {
      await server.database.rows(sql`update files set content_type = ${stored} where id = ${file.id}`);
      const { response } = await download(file.id);
      expect(response.status, stored).toBe(200);
      expect(response.headers.get('content-type'), stored).toBe('application/octet-stream');
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    await server.database.rows(sql`update files set content_type = 'text/plain; charset=utf-8' where id = ${file.id}`);
    const renamed = await api.patch(`/api/v1/files/${file.id}`, { name: 'page\u202Elmth.html' }, 1);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const { response } = await download(file.id);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="page_lmth.html.txt"; filename*=UTF-8''page_lmth.html.txt`,
    );
  });
});

describe('delete', () => {
  it('removes the bytes with the file', async () => {
    const file = await make.file('companies', company.id, pdf(2048), 'gone.pdf');
    expect((await onDisk()).files).toContain(String(file.id));
    expect((await api.delete(`/api/v1/files/${file.id}`, 1)).status).toBe(204);
    expect((await onDisk()).files).not.toContain(String(file.id));
    expect((await download(file.id)).response.status).toBe(404);
    expect((await api.get(`/api/v1/files/${file.id}`)).status).toBe(404);
  });
});
