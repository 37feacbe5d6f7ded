import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { importPermissions, requiredPermissions } from '@data-platform/shared/entities/access';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import {
  activeImportStatuses,
  type DuplicateRule,
  type FileImportSettings,
  fileImportSettingsSchema,
  IMPORT_UPLOAD_HOURS,
  type ImportJob,
  type ImportJobPage,
  importJobPageSchema,
  importJobSchema,
  importPreviewSchema,
  importSettingsSchema,
  type StartImport,
  startImportSchema,
  withSuggestions,
} from '@data-platform/shared/imports';
import { allPermissions } from '@data-platform/shared/permissions';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Actor, missingPermissions } from '../auth/actor.ts';
import type { Config } from '../config.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import type { Database } from '../db/client.ts';
import { conflict, DomainError, forbidden, invalid, notFound, tooLarge, unsupportedType } from '../domain/errors.ts';
import { errorBodySchema, validateBody } from '../http/errors.ts';
import { idParamsSchema } from '../http/record-params.ts';
import { csvSafe } from '../io/csv-formulas.ts';
import { type FileScan, fileScanSchema, type Readings, suggestedReadings } from '../io/import-formats.ts';
import { forgetUpload, ImportRunner, jobOf, listJobs, readJob } from '../io/import-jobs.ts';
import { PREVIEW_SCAN_ROWS, previewImport } from '../io/import-preview.ts';
import { assertRequiredGiven, type PlanSettings, planRows } from '../io/import-rows.ts';
import {
  headingText,
  inspectSource,
  rowsUnderHeading,
  type SourceFile,
  sourceRows,
  uploadPath,
} from '../io/import-source.ts';
import { type Cell, UnreadableTable } from '../io/table.ts';

/** The import permission of each entity that can be imported (`companies:import`...). */
const importRights = entityList.flatMap(
  (entity) => importPermissions(entity)?.filter((p) => p.endsWith(':import')) ?? [],
);

/**
 * What every import route declares (`config.anyOf`): a user who may import nothing is refused (403) on the
 * matched route, before the input is read (deny by default). Which entity's rights a request needs is then
 * checked with its input (`importableEntity`), and a job is its importer's or an administrator's.
 */
const anyImportRight = { anyOf: importRights } as const;

/** The entity an import names, when it can be imported and the actor holds the rights to (403 naming them). */
export function importableEntity(name: string, actor: Actor): EntityDescription {
  const entity = findEntity(name);
  const needed = entity ? importPermissions(entity) : undefined;
  if (!entity || !needed) throw invalid({ entity: 'Records of this kind cannot be imported' });
  const missing = missingPermissions(actor, needed);
  if (missing.length > 0) throw forbidden(missing);
  return entity;
}

/** A file the readers refused: too large for a limit of size (413), unreadable otherwise (400). */
export function refusal(error: unknown): unknown {
  if (!(error instanceof UnreadableTable)) return error;
  if (error.tooLarge) return tooLarge(error.message, { file: error.message });
  return invalid({ file: error.message }, 'The file could not be read');
}

export interface StoredUpload {
  id: number;
  entity: string;
  fileName: string;
  path: string;
  source: SourceFile;
  /** What a preview that read the whole file found of its columns (kept by the preview), null when none did. */
  scan: FileScan | null;
}

/** The actor's upload by id (404 for anyone else's), with its file inspected again (sheets, dialect). */
export async function findUpload(database: Database, config: Config, actor: Actor, id: number): Promise<StoredUpload> {
  const [row] = await database.rows<{
    id: number | string;
    entity: string;
    file_name: string;
    status: string;
    scan: unknown;
  }>(sql`select id, entity, file_name, status, scan from imports where id = ${id} and user_id = ${actor.userId}`);
  if (!row) {
    throw notFound(
      `Upload ${id}`,
      `an upload no import was started from is kept ${IMPORT_UPLOAD_HOURS} hours; upload the file again`,
    );
  }
  if (row.status !== 'uploaded') {
    throw conflict('This upload was imported already; upload the file again to import it again');
  }
  const file = uploadPath(config.dataDir, Number(row.id));
  const source = await inspectSource(file, row.file_name).catch((error: unknown) => {
    throw refusal(error);
  });
  const scan = fileScanSchema.safeParse(row.scan);
  return {
    id: Number(row.id),
    entity: row.entity,
    fileName: row.file_name,
    path: file,
    source,
    scan: scan.success ? scan.data : null,
  };
}

/**
 * Keeps a file to import for its owner: read as it arrives and refused the
 * moment it passes MAX_UPLOAD_BYTES (413), told CSV or XLSX from its bytes
 * (400 otherwise), then stored under its row of `imports`, status
 * `uploaded`. A refused file leaves nothing.
 */
async function keepUpload(
  database: Database,
  config: Config,
  actor: Actor,
  entity: EntityDescription,
  part: MultipartFile,
  ip: string,
): Promise<StoredUpload> {
  const fileName = String(part.filename ?? '').slice(0, 255);
  const uploadsDir = path.join(config.dataDir, 'imports');
  await mkdir(uploadsDir, { recursive: true });
  const tmp = path.join(uploadsDir, `tmp-${randomUUID()}`);
  let size = 0;
  try {
    await pipeline(
      part.file,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(tmp, { flags: 'wx' }),
    );
    if (part.file.truncated) {
      throw tooLarge(`The file is larger than ${config.maxUploadBytes} bytes`, { file: 'Too large' });
    }
    const source = await inspectSource(tmp, fileName).catch((error: unknown) => {
      throw refusal(error);
    });
    const [row] = await database.rows<{ id: number | string }>(
      sql`insert into imports (user_id, entity, file_name, file_kind, file_size, dialect, ip)
        values (${actor.userId}, ${entity.name}, ${fileName}, ${source.kind}, ${size},
          ${source.dialect ? JSON.stringify(source.dialect) : null}::jsonb, ${ip})
        returning id`,
    );
    const id = Number(row?.id);
    const file = uploadPath(config.dataDir, id);
    await rename(tmp, file).catch(async (error: unknown) => {
      await forgetUpload(database, config.dataDir, id);
      throw error;
    });
    return { id, entity: entity.name, fileName, path: file, source, scan: null };
  } finally {
    await rm(tmp, { force: true });
  }
}

/** The sheet the settings name, when the file has it (400 naming `sheet`). */
function assertSheet(source: SourceFile, sheet: string | undefined): void {
  if (sheet !== undefined && !source.sheets.includes(sheet)) {
    throw invalid({ sheet: `Expected one of ${source.sheets.join(', ') || 'no sheet (a CSV has none)'}` });
  }
}

const uploadQuerySchema = z.strictObject({ entity: z.string().min(1).max(100) });

/**
 * Uploads and previews of imports: `POST /api/v1/imports/uploads` keeps a
 * file for its owner and answers its preview with the suggested mapping;
 * `POST /api/v1/imports/preview` previews it again with the caller's sheet,
 * heading row, mapping, value mapping and duplicate rule. Nothing is written
 * to records. Needs the multipart parser the file routes register.
 */
export function registerImportPreviewRoutes(app: FastifyInstance, database: Database, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/v1/imports/uploads', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'Upload a file to import, and preview it',
      description: `multipart/form-data with one part named \`file\`: a CSV (UTF-8 with or without a byte order mark, UTF-16 with one, or Windows-1252, detected; comma, semicolon or tab, detected; quoted line breaks; CRLF or LF) or an XLSX workbook, at most ${config.maxUploadBytes} bytes (413 above, refused as it arrives). The entity is named in the query; the importer needs its create and import rights. Answers the preview with the suggested mapping (see \`POST /api/v1/imports/preview\`); nothing is imported until \`POST /api/v1/imports\`. An upload no import is started from within ${IMPORT_UPLOAD_HOURS} hours is removed with its file (then 404).`,
      querystring: uploadQuerySchema,
      consumes: ['multipart/form-data'],
      response: {
        201: importPreviewSchema,
        400: errorBodySchema,
        403: errorBodySchema,
        413: errorBodySchema,
        415: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const entity = importableEntity(request.query.entity, request.actor);
      if (!request.isMultipart()) throw unsupportedType('Send the file as multipart/form-data', { file: 'Required' });
      const part = await request.file();
      if (part?.fieldname !== 'file') throw invalid({ file: 'Required' }, 'Send one part named file');
      const upload = await keepUpload(database, config, request.actor, entity, part, request.ip);
      const described = await currentDescription(database, entity);
      const preview = await previewImport(
        database,
        described,
        request.actor,
        upload,
        { entity: entity.name, uploadId: upload.id },
        suggestedReadings(request.headers['accept-language']),
      ).catch((error: unknown) => {
        throw refusal(error);
      });
      return reply.code(201).send(preview);
    },
  });

  api.post('/api/v1/imports/preview', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'Preview an uploaded file as it would be imported',
      description: `The sheet (XLSX), heading row, mapping (a target per column, null to skip it; suggested from the headings when absent: the mapping the user confirmed last for the same heading, field labels and names, common synonyms), value mapping of picklist columns, fixed values (\`fixed\`: one value for every row of a field no column maps to, read as that field's cells are: a reference by name, domain, email, code or id, a picklist option), day/month order of dates that could be either way (\`dateOrder\`; suggested from Accept-Language when absent), decimal mark of numbers that could be either way (\`decimalMark\`: 3,421 and 1.234; suggested from Accept-Language when absent), and duplicate rule of an import. Answers the file's sheets and dialect, how each column of dates or numbers is written (decided from all its values: \`format\`; \`dateOrderNeeded\` when a column's dates could all be read either way, so that the caller confirms \`dateOrder\`; \`decimalMarkNeeded\` likewise for \`decimalMark\`), the distinct values of each picklist column with the option suggested for each (for a tags column, the tags already stored in the field are its options, and a value none matches is imported as written, a new tag: \`newValuesKept\`), and the first rows as they would be stored, with every problem per row and field (a fixed value's too) and what each would do. Nothing is imported. When the preview read every row (files of at most ${PREVIEW_SCAN_ROWS} rows), what it found of the columns' dates and numbers is kept with the upload, and a job started with the same sheet and heading row decides from it rather than reading the file a first time.`,
      body: importSettingsSchema,
      response: { 200: importPreviewSchema, 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
    },
    handler: async (request) => {
      const entity = importableEntity(request.body.entity, request.actor);
      const upload = await findUpload(database, config, request.actor, request.body.uploadId);
      if (upload.entity !== entity.name) throw invalid({ entity: `This file was uploaded to import ${upload.entity}` });
      assertSheet(upload.source, request.body.sheet);
      const described = await currentDescription(database, entity);
      const readings = suggestedReadings(request.headers['accept-language'], request.body);
      return previewImport(database, described, request.actor, upload, request.body, readings).catch(
        (error: unknown) => {
          throw refusal(error);
        },
      );
    },
  });
}

/** The headings of the upload's heading row (read up to it only). */
async function headingsOf(upload: StoredUpload, sheet?: string, headerRow?: number): Promise<string[]> {
  let headings: string[] = [];
  const rows = rowsUnderHeading(sourceRows(upload.path, upload.source, { sheet }), headerRow, (row) => {
    headings = row.cells.map(headingText);
  });
  try {
    await rows.next();
  } finally {
    await rows.return(undefined);
  }
  return headings;
}

/** The entity a job imports into, when the actor holds its create and import rights, and its update right to update duplicates (403). */
function jobEntity(settings: { entity: string; duplicates?: DuplicateRule }, actor: Actor): EntityDescription {
  const entity = importableEntity(settings.entity, actor);
  if (settings.duplicates?.action === 'update') {
    const missing = missingPermissions(actor, requiredPermissions(entity, 'update'));
    if (missing.length > 0) throw forbidden(missing);
  }
  return entity;
}

/**
 * A job's settings as it keeps them, the day/month order and the decimal mark
 * included (the caller's, or those Accept-Language suggests), so that it reads
 * the file as the preview did whoever resumes it; checked as the job will plan
 * its rows, and refused when every row it creates would miss a required field.
 */
function jobSettings<T extends PlanSettings & Partial<Readings>>(
  entity: EntityDescription,
  actor: Actor,
  settings: T,
  acceptLanguage: string | undefined,
): T & Readings {
  const readings = suggestedReadings(acceptLanguage, settings);
  const kept = { ...settings, ...readings };
  assertRequiredGiven(planRows(entity, actor, kept, readings));
  return kept;
}

/** A check of a one-call import's settings part: a field it finds wrong is named within the part (`settings.sheet`). */
function inSettings<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'invalid' || !error.fields) throw error;
    const fields = Object.entries(error.fields).map(([key, message]) => [`settings.${key}`, message]);
    throw new DomainError(error.kind, error.code, error.message, Object.fromEntries(fields));
  }
}

/**
 * The settings of a one-call import: the request's first part, named
 * `settings`, JSON text of at most `maxBytes` (413 above); checked before the
 * file that follows is read (400 naming `settings.<field>`).
 */
function settingsPart(part: Multipart | undefined, maxBytes: number): FileImportSettings {
  if (part?.type !== 'field' || part.fieldname !== 'settings') {
    if (part?.type === 'file') part.file.resume();
    throw invalid(
      { settings: 'Required' },
      'Send the settings first, as a text part named settings holding JSON, then the file as a part named file',
    );
  }
  if (part.valueTruncated) throw tooLarge(`The settings are larger than ${maxBytes} bytes`, { settings: 'Too large' });
  let json = part.value;
  if (typeof json === 'string') {
    try {
      // As the JSON bodies of the API, a key that would set an object's prototype is refused.
      json = JSON.parse(json, (key, value: unknown) => {
        if (key === '__proto__') throw new SyntaxError('a key named __proto__ is not accepted');
        return value;
      });
    } catch (error) {
      throw invalid({ settings: `Expected JSON: ${(error as Error).message}` }, 'The settings part is not valid JSON');
    }
  }
  return validateBody(fileImportSettingsSchema, json, 'settings');
}

/** Reads the parts a request still sends and drops them (a file part's bytes too), in the background. */
function dropRest(parts: AsyncIterableIterator<Multipart>): void {
  (async () => {
    for await (const part of parts) if (part.type === 'file') part.file.resume();
  })().catch(() => {});
}

/**
 * What the wizard would import if its user accepted every suggestion: the
 * mapping the preview suggests for this user and file, and for picklist
 * and tags columns the option (stored tag) it suggests for each value
 * (`values` the caller gave win).
 */
async function suggestedChoices(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
  upload: StoredUpload,
  settings: FileImportSettings,
  readings: Readings,
): Promise<Required<Pick<StartImport, 'mapping' | 'values'>>> {
  const { sheet, headerRow } = settings;
  const preview = await previewImport(
    database,
    entity,
    actor,
    upload,
    { entity: entity.name, uploadId: upload.id, sheet, headerRow },
    readings,
  ).catch((error: unknown) => {
    throw refusal(error);
  });
  return {
    mapping: preview.columns.map((column) => column.target),
    values: withSuggestions(settings.values ?? {}, preview.picklists),
  };
}

/** A job the actor may see: their own, or any for an administrator (every permission); 404 otherwise. */
async function visibleJob(database: Database, actor: Actor, id: number) {
  const row = await readJob(database, id);
  const administrator = allPermissions.every((p) => actor.permissions.has(p));
  if (!row || row.status === 'uploaded' || (!administrator && Number(row.user_id) !== actor.userId)) {
    throw notFound(`Import ${id}`);
  }
  return row;
}

/** A cell of the bad rows' file: text a spreadsheet would run as a formula gets a leading quote, numbers stay. */
const badRowCell = (cell: Cell) =>
  typeof cell === 'string' && /^[-+]?\d[\d\s.,]*$/.test(cell.trim()) ? cell : csvSafe(cell);

/** Jobs `GET /api/v1/imports` answers by default, and at most. */
const IMPORT_LIST_LIMIT = 20;
const IMPORT_LIST_MAX = 100;
const importListQuerySchema = z.strictObject({
  entity: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(IMPORT_LIST_MAX).optional(),
  before: idParamsSchema.shape.id
    .optional()
    .describe("The previous page's `nextBefore` (a job's id): jobs older than it. Without it, the newest jobs."),
});

/** Bad rows read from the database per page. */
const BAD_ROWS_PAGE = 1000;

/**
 * Import jobs: `POST /api/v1/imports` starts one over an upload (202),
 * `GET /api/v1/imports/{id}` follows it, `.../cancel` stops it, `.../undo`
 * takes it back, `.../bad-rows` downloads the rows it did not import with
 * an Error column. The runner starts and stops with the server.
 */
export function registerImportJobRoutes(app: FastifyInstance, database: Database, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const runner = new ImportRunner(database, config.dataDir, app.log);
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());

  const jobReply = {
    202: importJobSchema,
    400: errorBodySchema,
    403: errorBodySchema,
    404: errorBodySchema,
    409: errorBodySchema,
  };

  /** Queues the job over an upload (409 when it was imported already) with its headings, and runs it soon. */
  async function startJob(upload: StoredUpload, settings: StartImport, ip: string): Promise<ImportJob> {
    const headings = await headingsOf(upload, settings.sheet, settings.headerRow).catch((error: unknown) => {
      throw refusal(error);
    });
    const [started] = await database.rows<{ id: number }>(
      sql`update imports set status = 'queued', settings = ${JSON.stringify(settings)}::jsonb,
          headings = ${JSON.stringify(headings)}::jsonb, heartbeat_at = null, ip = ${ip}
        where id = ${upload.id} and status = 'uploaded' returning id`,
    );
    if (!started) throw conflict('This upload was imported already; upload the file again to import it again');
    runner.kick(upload.id);
    return jobOf((await readJob(database, upload.id)) as NonNullable<Awaited<ReturnType<typeof readJob>>>);
  }

  /**
   * A one-call import's job: its settings (the first part) checked before the
   * file (the next part) is read, the file kept as an upload, then the job
   * started as `POST /api/v1/imports` starts one, with the preview's
   * suggestions when no mapping is given. A refusal once the file is kept
   * removes it with its row.
   */
  async function startFromParts(
    parts: AsyncIterableIterator<Multipart>,
    actor: Actor,
    ip: string,
    acceptLanguage: string | undefined,
  ): Promise<ImportJob> {
    const nextPart = async () => {
      const next = await parts.next();
      return next.done ? undefined : next.value;
    };
    const body = settingsPart(await nextPart(), config.maxBodyBytes);
    const entity = inSettings(() => jobEntity(body, actor));
    const described = await currentDescription(database, entity);
    // A mapping given is checked before the file is read; a suggested one needs the file.
    const { mapping } = body;
    const given = mapping && inSettings(() => jobSettings(described, actor, { ...body, mapping }, acceptLanguage));
    const part = await nextPart();
    if (part?.type !== 'file' || part.fieldname !== 'file') {
      throw invalid({ file: 'Required' }, 'Send the file as a part named file, after the settings');
    }
    const upload = await keepUpload(database, config, actor, entity, part, ip);
    try {
      inSettings(() => assertSheet(upload.source, body.sheet));
      let settings = given;
      if (!settings) {
        const readings = suggestedReadings(acceptLanguage, body);
        const suggested = await suggestedChoices(database, described, actor, upload, body, readings);
        settings = inSettings(() => jobSettings(described, actor, { ...body, ...suggested }, acceptLanguage));
      }
      return await startJob(upload, { ...settings, uploadId: upload.id }, ip);
    } catch (error) {
      await forgetUpload(database, config.dataDir, upload.id);
      throw error;
    }
  }

  api.post('/api/v1/imports', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'Import an uploaded file as a job',
      description:
        "Starts a job over an upload (`POST /api/v1/imports/uploads`) with the confirmed mapping (a target per column, null to skip it), value mapping, fixed values, day/month order of dates that could be either way (the one Accept-Language suggests when absent, kept with the job), duplicate rule (`key`: one of the entity's dedup keys, or `id` when a column holds record ids; `action`: skip, update or create) and mode (`allOrNothing`: any bad row imports nothing; rows are checked as they are written, and at the first batch with a bad row the job stops writing, checks the rest of the file so that every bad row is listed, then takes back what it wrote, as it does when writing fails midway; `skipBadRows`: bad rows are set aside for download with an Error column). A sheet the file does not have, and a required field that no column maps to and no fixed value gives (unless duplicates are updated: every row created would miss it), are refused with 400 before the job starts. Answers 202 with the job; follow it at `GET /api/v1/imports/{id}`. Needs the entity's create and import rights, and its update right to update duplicates. `POST /api/v1/imports/file` does the upload and this in one call.",
      body: startImportSchema,
      response: jobReply,
    },
    handler: async (request, reply) => {
      const { body, actor } = request;
      const entity = jobEntity(body, actor);
      const upload = await findUpload(database, config, actor, body.uploadId);
      if (upload.entity !== entity.name) throw invalid({ entity: `This file was uploaded to import ${upload.entity}` });
      assertSheet(upload.source, body.sheet);
      const described = await currentDescription(database, entity);
      const settings = jobSettings(described, actor, body, request.headers['accept-language']);
      const job = await startJob(upload, settings, request.ip);
      return reply.code(202).header('location', `/api/v1/imports/${job.id}`).send(job);
    },
  });

  api.post('/api/v1/imports/file', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'Import a file as a job in one call, without a separate upload',
      description: `multipart/form-data with two parts, in this order: \`settings\`, JSON text holding the settings of \`POST /api/v1/imports\` but \`uploadId\` (at most ${config.maxBodyBytes} bytes), then \`file\`, the CSV or XLSX file as \`POST /api/v1/imports/uploads\` takes it (at most ${config.maxUploadBytes} bytes, 413 above, refused as it arrives). The settings are checked before any byte of the file is read: 400 naming \`settings.<field>\` (\`settings.mode\`), or \`settings\` when the part is missing, comes after the file or is not JSON. Without \`mapping\`, the job imports what the preview suggests for this user and file: its mapping, and for picklist columns the option suggested for each value (the caller's \`values\` win; a value nothing matches stays a problem of its rows; for tags columns, the stored tag suggested, a value none matches kept as written) — what the Import wizard imports when every suggestion is accepted. The same rights and checks as \`POST /api/v1/imports\`: a required field that no column maps to and no fixed value gives is refused (400 naming \`settings.mapping\`) unless duplicates are updated. A refused request keeps nothing, neither an upload nor its file. Answers 202 with the job and its address in Location; follow it at \`GET /api/v1/imports/{id}\`.`,
      consumes: ['multipart/form-data'],
      response: {
        202: importJobSchema,
        400: errorBodySchema,
        403: errorBodySchema,
        409: errorBodySchema,
        413: errorBodySchema,
        415: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      if (!request.isMultipart()) {
        throw unsupportedType('Send the settings and the file as multipart/form-data', {
          settings: 'Required',
          file: 'Required',
        });
      }
      const parts = request.parts({ limits: { fieldSize: config.maxBodyBytes } });
      try {
        const job = await startFromParts(parts, request.actor, request.ip, request.headers['accept-language']);
        return reply.code(202).header('location', `/api/v1/imports/${job.id}`).send(job);
      } catch (error) {
        // The rest of what the client sends is read and dropped, so that its connection serves its next request.
        dropRest(parts);
        throw error;
      }
    },
  });

  api.get('/api/v1/imports', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: "The caller's imports, newest first",
      description: `The caller's own import jobs (started ones; uploads never imported are left out), newest first, at most \`limit\` (${IMPORT_LIST_LIMIT} by default, ${IMPORT_LIST_MAX} at most); with \`entity\`, those of one kind of record, for which the caller needs the import rights. Each as \`GET /api/v1/imports/{id}\` answers it, without its problems (\`problemCount\` counts them; the job's own answer lists them). Paged by job id: \`nextBefore\` is the id to pass as \`before\` for the next (older) page, null on the last page; each job shows on one page only, even while new ones start.`,
      querystring: importListQuerySchema,
      response: { 200: importJobPageSchema, 400: errorBodySchema, 403: errorBodySchema },
    },
    handler: async (request): Promise<ImportJobPage> => {
      const { entity, before, limit = IMPORT_LIST_LIMIT } = request.query;
      const kind = entity === undefined ? undefined : importableEntity(entity, request.actor).name;
      const page = await listJobs(database, request.actor.userId, { entity: kind, before, limit });
      return { data: page.rows.map((row) => ({ ...jobOf(row), problems: [] })), nextBefore: page.nextBefore };
    },
  });

  api.get('/api/v1/imports/:id', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'An import job: its progress and result',
      description:
        "Rows checked and done, rows per second and seconds left, what was created, updated, left unchanged, skipped and set aside, duplicates within the file and against stored records, the first problems by row and field, whether the job was resumed or rolled back after a server restart, and the undo's report. For the importer and administrators.",
      params: idParamsSchema,
      response: { 200: importJobSchema, 404: errorBodySchema },
    },
    handler: async (request): Promise<ImportJob> => {
      const job = jobOf(await visibleJob(database, request.actor, request.params.id));
      // A job that has ended wrote its rows without a request: its answer says where they are (a read replica's lag).
      request.answersPosition = !activeImportStatuses.includes(job.status);
      return job;
    },
  });

  api.post('/api/v1/imports/:id/cancel', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'Cancel an import job',
      description:
        'Stops the job after the batch in progress: in all-or-nothing mode what it wrote is taken back; in skip-bad-rows mode what it wrote stays (undo takes it back). 409 when the job has ended.',
      params: idParamsSchema,
      response: jobReply,
    },
    handler: async (request, reply) => {
      const row = await visibleJob(database, request.actor, request.params.id);
      if (!activeImportStatuses.includes(row.status) || row.status === 'undoing') {
        throw conflict(`This import has ended (${row.status}); nothing to cancel`);
      }
      await database.rows(sql`update imports set cancel_requested = true where id = ${row.id}`);
      return reply.code(202).send(jobOf({ ...row, cancel_requested: true }));
    },
  });

  api.post('/api/v1/imports/:id/undo', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'Undo an import',
      description:
        "Deletes the records the job created and restores those it updated, each only when nobody changed it since (its version is still the one the import left); the job's `undo` reports what was done and what was kept, and why. 409 unless the job has ended having written something.",
      params: idParamsSchema,
      response: jobReply,
    },
    handler: async (request, reply) => {
      const row = await visibleJob(database, request.actor, request.params.id);
      const [undoing] = await database.rows<{ id: number }>(
        sql`update imports set status = 'undoing', undo = null, heartbeat_at = null, message = null
          where id = ${row.id} and status in ('succeeded', 'cancelled', 'failed') and undo is null
            and (exists (select 1 from import_created c where c.import_id = imports.id)
              or exists (select 1 from import_records r where r.import_id = imports.id))
          returning id`,
      );
      if (!undoing) throw conflict('Only an import that has ended having written records can be undone, once');
      runner.kick(Number(row.id));
      return reply.code(202).send(jobOf((await readJob(database, Number(row.id))) as typeof row));
    },
  });

  api.get('/api/v1/imports/:id/bad-rows', {
    config: anyImportRight,
    schema: {
      tags: ['Imports'],
      summary: 'The rows an import did not take, as CSV with an Error column',
      description:
        "The file's heading row with an Error column, then each row set aside as the file holds it with why; fix them and import this file again.",
      params: idParamsSchema,
      response: { 200: z.any(), 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      const row = await visibleJob(database, request.actor, request.params.id);
      const [headingRow] = await database.rows<{ headings: string[] | null }>(
        sql`select headings from imports where id = ${row.id}`,
      );
      const headings = headingRow?.headings ?? [];
      async function* lines(): AsyncGenerator<string> {
        yield `\ufeff${stringify([[...headings, 'Error']])}`;
        let after = 0;
        for (;;) {
          const page = await database.rows<{ row_number: number; cells: Cell[]; error: string }>(
            sql`select row_number, cells, error from import_bad_rows
              where import_id = ${row.id} and row_number > ${after} order by row_number limit ${BAD_ROWS_PAGE}`,
          );
          if (page.length === 0) return;
          yield stringify(
            page.map((bad) => {
              const cells = headings.map((_, i) => badRowCell(bad.cells[i] ?? null));
              return [...cells, bad.error];
            }),
            { cast: { boolean: (b) => String(b) } },
          );
          after = (page.at(-1) as { row_number: number }).row_number;
        }
      }
      const name = row.file_name.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'import';
      reply.headers({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}-bad-rows.csv"`,
      });
      return reply.send(Readable.from(lines()));
    },
  });
}
