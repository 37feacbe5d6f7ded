import { operationsOf } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** The API describes itself: an OpenAPI 3.1 document with every resource, and a browsable reference. */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => server?.close());

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { responses?: Record<string, unknown>; summary?: string }>>;
}

describe('OpenAPI', () => {
  let document: OpenApiDocument;

  beforeAll(async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    document = (await response.json()) as OpenApiDocument;
  });

  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info.title).toBe('Data Platform API');
  });

  it('has the paths and methods of every resource, as its description offers them', () => {
    const missing: string[] = [];
    const need = (path: string, method: string) => {
      if (!document.paths[path]?.[method]) missing.push(`${method.toUpperCase()} ${path}`);
    };
    for (const entity of entityList) {
      for (const segment of [entity.name, ...(entity.pathAlias ? [entity.pathAlias] : [])]) {
        const base = `/api/v1/${segment}`;
        const ops = operationsOf(entity);
        if (ops.includes('list')) {
          need(base, 'get');
          need(`${base}/query`, 'post');
          for (const relation of Object.keys(entity.relations ?? {})) need(`${base}/{id}/${relation}`, 'get');
        }
        if (ops.includes('get')) need(`${base}/{id}`, 'get');
        if (ops.includes('create')) need(base, 'post');
        if (ops.includes('update')) need(`${base}/{id}`, 'patch');
        if (ops.includes('delete')) need(`${base}/{id}`, 'delete');
      }
    }
    need('/api/v1/files', 'post');
    need('/api/v1/files/{id}/content', 'get');
    expect(missing).toEqual([]);
  });

  it('documents the answers of each operation, errors included', () => {
    const list = document.paths['/api/v1/companies']?.get;
    expect(Object.keys(list?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400']));
    const update = document.paths['/api/v1/companies/{id}']?.patch;
    expect(Object.keys(update?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '404', '412', '428']));
    const create = document.paths['/api/v1/contacts']?.post;
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '409']));
  });
});

describe('API reference', () => {
  it('answers 200 with an HTML page', async () => {
    const response = await fetch(`${server.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<html/i);
  });
});
