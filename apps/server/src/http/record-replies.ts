import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { recordSchema } from '@data-platform/shared/entities/record-schema';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ListPage } from '../crud/records.ts';

/** A list page of an entity, as OpenAPI documents it. */
export function listResponseSchema(entity: EntityDescription) {
  return z.object({
    data: z.array(recordSchema(entity).partial()),
    page: z.number(),
    pageSize: z.number(),
    total: z.number().nullable(),
    totalExact: z.boolean().nullable(),
    nextCursor: z.string().nullable(),
  });
}

/** Sends a list page without parsing and re-serializing the rows the database built. */
export function sendPage(reply: FastifyReply, query: ListQuery, page: ListPage) {
  const head = JSON.stringify({
    page: query.page,
    pageSize: query.pageSize,
    total: page.total,
    totalExact: page.totalExact,
    nextCursor: page.nextCursor,
  });
  return reply.type('application/json; charset=utf-8').send(`{"data":[${page.rows.join(',')}],${head.slice(1)}`);
}

/**
 * Sends one record as the database built it, with its version as the ETag.
 * `version` as the statement read it (null: the JSON holds none); when not
 * given, it is read from the JSON.
 */
export function sendRecord(reply: FastifyReply, row: string, status = 200, version?: number | null) {
  const etag = version !== undefined ? version : (JSON.parse(row) as { version?: number }).version;
  if (etag !== undefined && etag !== null) reply.header('etag', `"${etag}"`);
  return reply.code(status).type('application/json; charset=utf-8').send(row);
}
