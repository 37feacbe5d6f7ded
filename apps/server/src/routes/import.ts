import { importPermissions } from '@data-platform/shared/entities/access';
import { entityList } from '@data-platform/shared/entities/registry';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import type { Database } from '../db/client.ts';
import { invalid, tooLarge, unsupportedType } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { importTable, MAX_IMPORT_ROWS, readTable } from '../io/import.ts';
import { suggestedReadings } from '../io/import-formats.ts';
import { tableLimits } from '../io/table.ts';
import { xlsxLimits } from '../io/xlsx-reader.ts';
import { registerImportJobRoutes, registerImportPreviewRoutes } from './import-jobs.ts';

/**
 * `POST /api/v1/{resource}/import`: a CSV or XLSX file (multipart, one part
 * named `file`) of new records, all created or none. Needs the multipart
 * parser the file routes register.
 */
export function registerImportRoutes(app: FastifyInstance, database: Database, config: Config): void {
  registerImportPreviewRoutes(app, database, config);
  registerImportJobRoutes(app, database, config);
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const entity of entityList) {
    // The shared rule decides which entities can be imported, here and in the web app.
    if (!importPermissions(entity)) continue;
    for (const segment of [entity.name, ...(entity.pathAlias ? [entity.pathAlias] : [])]) {
      api.post(`/api/v1/${segment}/import`, {
        config: { access: { resource: entity.name, action: 'create' }, permission: `${entity.name}:import` },
        schema: {
          tags: [entity.labelPlural],
          summary: `Import ${entity.labelPlural.toLowerCase()} from CSV or XLSX`,
          description: `multipart/form-data with one part named \`file\`: a .csv (UTF-8, or UTF-16 with a byte order mark) or the first sheet of an .xlsx, at most ${config.maxUploadBytes} bytes (and ${xlsxLimits.inflatedBytes} once unzipped, at most ${xlsxLimits.inflateRatio} times its size), ${MAX_IMPORT_ROWS} rows (${tableLimits.rows} with blank ones), ${tableLimits.columns} columns and ${tableLimits.cellChars} characters a cell; a file over a limit is refused as soon as it passes it (413 for sizes and rows, 400 otherwise). The first row names the columns by field label (as an export writes them) or field name; references are given by name, money by an amount column and a "<label> currency" column, lists as \`a; b\`; dates and numbers as spreadsheets write them (\`Dec 31, 2004\`, \`31/12/2004\`, \`3,421.567\`, \`3 421,567\`), each column read one way decided from its values (the day/month order of dates that could all be either way from Accept-Language). Every row is checked first: any error answers 400 with \`fields\` keyed \`<row>.<field>\` and nothing is written; otherwise all rows are created in one transaction.`,
          consumes: ['multipart/form-data'],
          response: {
            201: z.object({ created: z.number(), ignoredColumns: z.array(z.string()) }),
            400: errorBodySchema,
            403: errorBodySchema,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
        handler: async (request, reply) => {
          if (!request.isMultipart()) {
            throw unsupportedType('Send the file as multipart/form-data', {
              file: 'Required',
            });
          }
          const part = await request.file();
          if (part?.fieldname !== 'file') {
            throw invalid({ file: 'Required' }, 'Send one part named file');
          }
          const bytes = await part.toBuffer().catch((error: unknown) => {
            if (part.file.truncated || (error as { statusCode?: number }).statusCode === 413) {
              throw tooLarge(`The file is larger than ${config.maxUploadBytes} bytes`, {
                file: 'Too large',
              });
            }
            throw error;
          });
          const described = await currentDescription(database, entity);
          const outcome = await importTable(database, described, readTable(bytes, part.filename), {
            actor: request.actor,
            ip: request.ip,
            readings: suggestedReadings(request.headers['accept-language']),
          });
          return reply.code(201).send(outcome);
        },
      });
    }
  }
}
