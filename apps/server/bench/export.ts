/**
 * `node --import tsx bench/export.ts --scale N [--rows M] [--formats csv,xlsx]`
 *
 * The export of M companies (default: all N of the bench database at scale
 * N, see prepare.ts; seeded when it holds fewer than M) in one process,
 * against PostgreSQL's `COPY (...) TO STDOUT WITH (FORMAT csv, HEADER)` of
 * the same rows and fields as stored, in the same order (the floor): all fields (24 columns
 * without custom fields) and 8 columns, CSV and XLSX. Prints the time, rows/s,
 * our share of the floor's speed and the process's peak RSS during each run
 * (and at its start: RSS seldom shrinks, so a run's peak includes what the
 * runs before it left), with the load average (a shared machine: compare ratios, not seconds).
 * Reads only: a bench database other runs use is left as it is.
 * Not a test: nothing here passes or fails.
 */

import os from 'node:os';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { companies } from '@data-platform/shared/entities/companies';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import type { ExportFormat } from '@data-platform/shared/export-formats';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { currentDescription } from '../src/crud/custom-fields.ts';
import type { Database } from '../src/db/client.ts';
import { CUSTOM_COLUMN, columnName, currencyColumnName } from '../src/db/columns.ts';
import { exportColumns, exportStream } from '../src/io/export.ts';
import { benchTarget, ensureSeeded, openTarget } from './prepare.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100000' },
    rows: { type: 'string' },
    formats: { type: 'string', default: 'csv,xlsx' },
  },
});
const scale = Number(values.scale);
const rows = Number(values.rows ?? values.scale);
const formats = (values.formats ?? 'csv').split(',') as ExportFormat[];
const log = (line: string) => console.log(line);

/** Eight columns of a company a person typically exports (money is two). */
const EIGHT = ['name', 'city', 'industry', 'stage', 'employees', 'revenue', 'hqCountryId'];

/**
 * The process's resident memory, sampled while `run` goes: its peak in MB,
 * and what it was at the start (RSS seldom shrinks: a run's peak includes
 * what the runs before it left, and the difference is what this one added).
 */
async function measured(
  run: () => Promise<number>,
): Promise<{ seconds: number; bytes: number; peakMb: number; startMb: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  try {
    const bytes = await run();
    return {
      seconds: (performance.now() - started) / 1000,
      bytes,
      peakMb: Math.round(peak / 1e6),
      startMb: Math.round(start / 1e6),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** A sink that counts bytes and keeps none. */
function counter(): { sink: Writable; bytes: () => number } {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      done();
    },
  });
  return { sink, bytes: () => bytes };
}

/** The stored columns of the exported fields, as they are in the table: what COPY of "the same" reads. */
function storedColumns(entity: EntityDescription, select: readonly string[] | undefined): string {
  const fields = allFields(entity);
  const hidden = new Set(['version', 'createdById', 'updatedById']);
  const names = select ? ['id', ...select] : Object.keys(fields).filter((name) => !hidden.has(name));
  const ident = (name: string) => `"${name}"`;
  return names
    .flatMap((name) => {
      const field = fields[name];
      if (!field) throw new Error(`No field ${name}`);
      if (field.custom) return [`${CUSTOM_COLUMN} ->> '${name}'`];
      if (fieldTypeModule(field.type).storage.currencyColumn) {
        return [ident(columnName(name)), ident(currencyColumnName(name))];
      }
      return [ident(columnName(name))];
    })
    .join(', ');
}

async function copyFloor(url: string, statement: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { sink, bytes } = counter();
    await pipeline(client.query(copyTo(`COPY (${statement}) TO STDOUT WITH (FORMAT csv, HEADER)`)), sink);
    return bytes();
  } finally {
    await client.end();
  }
}

async function ours(
  database: Database,
  entity: EntityDescription,
  select: readonly string[] | undefined,
  format: ExportFormat,
): Promise<number> {
  const raw: Record<string, unknown> = select ? { select: select.join(',') } : {};
  const parsed = parseListQueryString(entity, raw);
  const { columns, join } = exportColumns(entity, parsed.select);
  const { sink, bytes } = counter();
  await pipeline(
    // The first `rows` companies, as a reader's row scope would narrow them (the API filters id by eq and in only).
    exportStream(
      database,
      entity,
      { ...parsed, join: [...parsed.join, ...join] },
      { where: sql`t.id <= ${rows}` },
      format,
      columns,
    ),
    sink,
  );
  return bytes();
}

const target = await benchTarget(scale, process.env.DATABASE_URL);
const database = await openTarget(target);
try {
  const [present] = await database.rows<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(companies.table)} where id <= ${rows}`,
  );
  if ((present?.n ?? 0) < rows) await ensureSeeded(database, scale, log);
  const entity = await currentDescription(database, companies);
  log(
    `Export of ${rows} companies on ${database.kind} (bench database at scale ${scale}); load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}, ${os.cpus().length} CPUs`,
  );
  log(`RSS before the runs: ${Math.round(process.memoryUsage.rss() / 1e6)} MB`);
  log(
    '| columns | format | ours (s) | rows/s | COPY TO STDOUT (s) | share of COPY | peak RSS (MB) (at its start) | file (MB) |',
  );
  log('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const select of [undefined, EIGHT]) {
    const count = exportColumns(entity, select).columns.length;
    // In the list's order (companies: by name, then id), as the export reads them.
    const order = parseListQueryString(entity, {})
      .sort.map((key) => `"${columnName(key.field)}" ${key.dir}`)
      .join(', ');
    const floorStatement = `select ${storedColumns(entity, select)} from ${companies.table} where id <= ${rows} order by ${order}`;
    const floor =
      database.kind === 'postgres' && target.url
        ? await measured(() => copyFloor(target.url as string, floorStatement))
        : undefined;
    for (const format of formats) {
      const run = await measured(() => ours(database, entity, select, format));
      const share = floor ? `${Math.round((floor.seconds / run.seconds) * 100)} %` : 'n/a';
      log(
        `| ${count} | ${format} | ${run.seconds.toFixed(2)} | ${Math.round(rows / run.seconds)} | ${
          floor ? floor.seconds.toFixed(2) : 'n/a'
        } | ${share} | ${run.peakMb} (${run.startMb}) | ${(run.bytes / 1e6).toFixed(1)} |`,
      );
    }
  }
  log(
    `Load average after: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await database.close();
}
