import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { files } from '@data-platform/shared/entities/files';
import { recordSchema } from '@data-platform/shared/entities/record-schema';
import { attachableEntities } from '@data-platform/shared/entities/registry';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readableScope } from '../access/reading.ts';
import { recordChange } from '../auth/audit.ts';
import type { Config } from '../config.ts';
import { createRecord, getRecord, storedFilePath } from '../crud/records.ts';
import type { Database } from '../db/client.ts';
import { invalid, tooLarge, unsupportedType } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema } from '../http/record-params.ts';
import { sendRecord } from '../http/record-replies.ts';
import { acceptedExtensions, decideFileType, type FileType, servedFileType } from '../io/file-types.ts';

const uploadQuerySchema = z.strictObject({
  entity: z.enum(attachableEntities),
  recordId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

const MAX_NAME_LENGTH = 255;
/** Control characters, and the direction marks that make `report\u202Efdp.exe` read as `report.exe.pdf`. */
const unsafeNameCharacters = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The name an upload is stored under: its last path segment, refused when it could mislead or break a header. */
function uploadName(raw: string): string {
  const name = (raw.split(/[/\\]/).pop() ?? '').trim();
  const refuse = (message: string) => invalid({ file: message }, message);
  if (name === '' || name === '.' || name === '..') throw refuse('Name the file');
  if (name.length > MAX_NAME_LENGTH) throw refuse(`A file name has at most ${MAX_NAME_LENGTH} characters`);
  if (unsafeNameCharacters.test(name)) throw refuse('A file name cannot contain control or text direction characters');
  return name;
}

/**
 * The name a download is saved under: the stored one (which a rename may
 * have changed), without characters that could mislead, ending in an
 * extension of the type the bytes were found to be, so that it opens as that.
 */
function downloadName(name: string, type: FileType | undefined): string {
  const safe = name.replace(new RegExp(unsafeNameCharacters.source, 'gu'), '_');
  if (!type || type.extensions.includes(path.extname(safe).toLowerCase())) return safe;
  return `${safe}${type.extensions[0]}`;
}

/** `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266 and 5987) for any name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * as they are; RFC 5987 wants them encoded.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
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
      description: `multipart/form-data with one part named \`file\`; the record is named in the query. At most ${config.maxUploadBytes} bytes (413 above).
The type is decided from the bytes, never from the type the client sends: PDF, PNG, JPEG, GIF, WebP, Word, Excel and
PowerPoint (Office Open XML without macros, or 97-2003), ZIP, and UTF-8 text or CSV, under a name ending in
${acceptedExtensions.join(', ')} that matches the bytes; anything else answers 415.`,
      querystring: uploadQuerySchema,
      consumes: ['multipart/form-data'],
      response: { 201: recordSchema(files), 400: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema },
    },
    handler: async (request, reply) => {
      if (!request.isMultipart()) {
        throw unsupportedType('Send the file as multipart/form-data', { file: 'Required' });
      }
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        throw invalid({ file: 'Required' }, 'Send one part named file');
      }
      let name: string;
      try {
        name = uploadName(part.filename ?? '');
      } catch (error) {
        part.file.resume();
        throw error;
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
          throw tooLarge(`The file is larger than ${config.maxUploadBytes} bytes`, {
            file: 'Too large',
          });
        }
        const decided = await decideFileType(tmp, size, name);
        if ('refused' in decided) {
          throw unsupportedType(decided.refused, { file: decided.refused }, 'file_type_refused');
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
              contentType: decided.type.contentType,
              sha256: hash.digest('hex'),
            },
            tx,
          );
          const id = (JSON.parse(created) as { id: number }).id;
          await recordChange(
            database,
            { type: 'recordCreated', actorId: request.actor.userId, ip: request.ip, entity: files.name, id },
            tx,
          );
          // Moved into place before the row commits; a failed commit removes it below.
          stored = storedFilePath(config.dataDir, id);
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
      const type = servedFileType(file.contentType);
      // Every header is the server's own text: the type from the allow-list, the name encoded.
      reply.headers({
        'content-type': type?.contentType ?? 'application/octet-stream',
        'content-length': String(file.size),
        'content-disposition': contentDisposition(downloadName(file.name, type)),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        etag: `"${file.sha256}"`,
      });
      return reply.send(createReadStream(storedFilePath(config.dataDir, request.params.id)));
    },
  });
}
