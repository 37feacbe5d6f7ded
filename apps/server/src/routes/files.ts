import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { files } from '@data-platform/shared/entities/files';
import { attachableEntities } from '@data-platform/shared/entities/picklists';
import { recordSchema } from '@data-platform/shared/entities/record-schema';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { createRecord, getRecord, storedFilePath } from '../crud/records.ts';
import { idParamsSchema, readableScope, sendRecord } from '../crud/routes.ts';
import type { Database } from '../db/client.ts';
import { AppError, errorBodySchema } from '../http/errors.ts';

/** Extensions refused on upload: programs and scripts that a colleague could run by opening them. */
const refusedExtensions = new Set([
  '.exe',
  '.dll',
  '.com',
  '.bat',
  '.cmd',
  '.msi',
  '.scr',
  '.ps1',
  '.vbs',
  '.js',
  '.jar',
  '.sh',
  '.app',
  '.apk',
]);

const uploadQuerySchema = z.strictObject({
  entity: z.enum(attachableEntities),
  recordId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** `attachment; filename="..."; filename*=UTF-8''...` for any name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Upload (multipart, one part named `file`) and download of file bytes. The
 * bytes live under DATA_DIR/files/<id>; listing, renaming and deleting go
 * through the generic `files` routes.
 */
export async function registerFileRoutes(app: FastifyInstance, database: Database, config: Config): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10, fieldSize: 1000, parts: 20 },
  });
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tmpDir = path.join(config.dataDir, 'tmp');
  const filesDir = path.join(config.dataDir, 'files');

  api.post('/api/v1/files', {
    config: { access: { resource: 'files', action: 'create' } },
    schema: {
      tags: [files.labelPlural],
      summary: 'Upload a file to a record',
      description: `multipart/form-data with one part named \`file\`; the record is named in the query. At most ${config.maxUploadBytes} bytes (413 above).`,
      querystring: uploadQuerySchema,
      consumes: ['multipart/form-data'],
      response: { 201: recordSchema(files), 400: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema },
    },
    handler: async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data', { file: 'Required' });
      }
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        throw new AppError(400, 'validation_failed', 'Send one part named file', { file: 'Required' });
      }
      const name = path.basename(part.filename || 'file').slice(0, 255);
      if (refusedExtensions.has(path.extname(name).toLowerCase())) {
        part.file.resume();
        throw new AppError(415, 'file_type_refused', `Files of type ${path.extname(name)} are not accepted`, {
          file: 'This file type is not accepted',
        });
      }
      await mkdir(tmpDir, { recursive: true });
      await mkdir(filesDir, { recursive: true });
      const tmp = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      let stored: string | undefined;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(part.file, meter, createWriteStream(tmp, { flags: 'wx' }));
        if (part.file.truncated) {
          throw new AppError(413, 'too_large', `The file is larger than ${config.maxUploadBytes} bytes`, {
            file: 'Too large',
          });
        }
        const row = await database.db.transaction(async (tx) => {
          const created = await createRecord(
            database,
            files,
            { name },
            request.actor,
            {
              ...request.query,
              size,
              contentType: part.mimetype || 'application/octet-stream',
              sha256: hash.digest('hex'),
            },
            tx,
          );
          // Moved into place before the row commits; a failed commit removes it below.
          stored = storedFilePath(config.dataDir, (JSON.parse(created) as { id: number }).id);
          await rename(tmp, stored);
          return created;
        });
        return sendRecord(reply, row, 201);
      } catch (error) {
        if (stored) await rm(stored, { force: true });
        throw error;
      } finally {
        await rm(tmp, { force: true });
      }
    },
  });

  api.get('/api/v1/files/:id/content', {
    config: { access: { resource: 'files', action: 'read' } },
    schema: {
      tags: [files.labelPlural],
      summary: 'Download the bytes of a file',
      params: idParamsSchema,
      response: { 200: z.any(), 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      const row = await getRecord(
        database,
        files,
        request.params.id,
        { select: ['name', 'size', 'contentType', 'sha256'], join: [] },
        readableScope(files, request.actor),
      );
      const file = JSON.parse(row) as { name: string; size: number; contentType: string; sha256: string };
      reply.headers({
        'content-type': file.contentType,
        'content-length': String(file.size),
        'content-disposition': contentDisposition(file.name),
        'x-content-type-options': 'nosniff',
        etag: `"${file.sha256}"`,
      });
      return reply.send(createReadStream(storedFilePath(config.dataDir, request.params.id)));
    },
  });
}
