import { POSITION_PATTERN, parsePosition, READ_AFTER_HEADER } from '@data-platform/shared/read-after';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { invalid } from '../domain/errors.ts';
import type { RouteAccess } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The WAL position the client's own writes reached (its `Read-After` header): a replica read waits for it. */
    readAfter: bigint | undefined;
    /** Set by a read whose answer tells of writes made without a request (a finished import job): it carries the position too. */
    answersPosition: boolean;
  }
}

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A route that changes nothing whatever its method (`POST /{resource}/query`). */
function readsOnly(access: RouteAccess | RouteAccess[] | undefined): boolean {
  const accesses = access === undefined ? [] : [access].flat();
  return accesses.length > 0 && accesses.every((a) => a.action === 'read');
}

/**
 * Read-your-writes with a read replica (decision 0048): a write's answer
 * carries the primary's position after it (`Read-After`), which the web app
 * (and any client that wants to read its writes) sends with later requests;
 * `readerFor` sends a read to the replica only once it has replayed that
 * far. A `Read-After` that is no position is a 400, with or without a replica.
 */
export function installReadAfter(app: FastifyInstance, database: Database): void {
  app.decorateRequest('readAfter', undefined);
  app.decorateRequest('answersPosition', false);
  // A callback, not an async hook: it runs on every request, and most send no position.
  app.addHook('onRequest', (request, _reply, done) => {
    const sent = request.headers[READ_AFTER_HEADER];
    if (sent === undefined) return done();
    const text = (Array.isArray(sent) ? sent.at(-1) : sent)?.trim();
    if (text === undefined || !POSITION_PATTERN.test(text)) {
      return done(
        invalid({
          [READ_AFTER_HEADER]: 'Expected a position this server sent in a Read-After header, such as 0/16B3748',
        }),
      );
    }
    request.readAfter = parsePosition(text);
    done();
  });
  const position = database.position;
  if (!database.replica || !position) return;
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config ?? {};
    const reads = readMethods.has(request.method) || config.public || readsOnly(config.access);
    if ((reads && !request.answersPosition) || reply.statusCode >= 400) return payload;
    try {
      reply.header(READ_AFTER_HEADER, await position());
    } catch (error) {
      // The write is committed: its answer goes out, only without the position (a replica read may then lag it).
      request.log.warn({ err: error }, 'the position after a write could not be read');
    }
    return payload;
  });
}

/** Where a read that tolerates a replica goes: the replica once it holds the request's own writes, else the primary. */
export async function readerFor(database: Database, request: FastifyRequest): Promise<Database> {
  const replica = database.replica;
  return replica && (await replica.mayRead(request.readAfter)) ? replica.database : database;
}
