import { allFields } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { conflict, type DomainError, invalid, unavailable } from '../domain/errors.ts';
import { columnName, currencyColumnName } from './columns.ts';

interface PgError {
  code: string;
  table?: string;
  column?: string;
  constraint?: string;
  detail?: string;
}

/** table → column → API field name */
const fieldsByColumn = new Map<string, Map<string, string>>();
for (const entity of entityList) {
  const columns = new Map<string, string>();
  for (const [name, field] of Object.entries(allFields(entity))) {
    columns.set(columnName(name), name);
    if (fieldTypeModule(field.type).storage.currencyColumn) columns.set(currencyColumnName(name), `${name}.currency`);
  }
  fieldsByColumn.set(entity.table, columns);
}

/** constraint name → the field and message of an entity's check */
const checksByName = new Map(
  entityList.flatMap((entity) => (entity.checks ?? []).map((rule) => [rule.name, rule] as const)),
);

/**
 * An error and what it wraps: Drizzle wraps driver errors in `cause`, and a
 * connection to a host with several addresses fails with an AggregateError.
 */
export function errorChain(error: unknown): Array<{ code?: unknown; message?: unknown }> {
  const chain: Array<{ code?: unknown; message?: unknown }> = [];
  const queue = [error];
  while (queue.length > 0 && chain.length < 10) {
    const current = queue.shift();
    if (!current || typeof current !== 'object') continue;
    chain.push(current);
    queue.push((current as { cause?: unknown }).cause);
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
  return chain;
}

function pgErrorOf(error: unknown): PgError | undefined {
  return errorChain(error).find(
    (candidate): candidate is PgError => typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code),
  );
}

/** Seconds a client is asked to wait before trying again while the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection to the database that could not be made or was cut. */
const connectionErrnos = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that ended or refused the session: class 08
 * (connection exception), 57P01-57P03 (terminated by an administrator, a
 * crash, a server starting or stopping), 57P05 and 25P03 (an idle reaper),
 * 53300 (no connection slot free).
 */
const connectionStates = /^(08...|57P0[1235]|25P03|53300)$/;

/** node-postgres reports a lost or unobtainable connection as plain errors with these messages. */
const connectionMessages =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/**
 * Whether an error means the database could not be reached or the connection
 * was lost (a restart, a failover, pg_terminate_backend, an idle reaper)
 * rather than anything about the request: worth trying again shortly.
 */
export function isConnectionError(error: unknown): boolean {
  return errorChain(error).some(
    ({ code, message }) =>
      (typeof code === 'string' && (connectionErrnos.has(code) || connectionStates.test(code))) ||
      (typeof message === 'string' && connectionMessages.test(message)),
  );
}

const databaseUnavailable = () =>
  unavailable(
    'database_unavailable',
    'The database cannot be reached at the moment; try again in a few seconds',
    DATABASE_RETRY_AFTER_SECONDS,
  );

function fieldsOf(pg: PgError): string[] {
  const table = pg.table ? fieldsByColumn.get(pg.table) : undefined;
  const columns = pg.column ? [pg.column] : (/Key \(([^)]*)\)/.exec(pg.detail ?? '')?.[1]?.split(', ') ?? []);
  return columns.map((c) => table?.get(c) ?? c);
}

/**
 * Turns constraint violations into invalid values and conflicts that name the
 * field, and a lost database into "unavailable, try again shortly".
 */
export function mapDatabaseError(error: unknown): DomainError | undefined {
  if (isConnectionError(error)) return databaseUnavailable();
  const pg = pgErrorOf(error);
  if (!pg) return undefined;
  const fields = fieldsOf(pg);
  const named = (message: string) => Object.fromEntries(fields.map((f) => [f, message]));
  switch (pg.code) {
    case '23505':
      return conflict(`Another record already has this ${fields.join(' and ')}`, named('Already used'));
    case '23503':
      if (/is still referenced/.test(pg.detail ?? '')) {
        return conflict('Other records still refer to this one');
      }
      return invalid(named('No such record'), 'A referenced record does not exist');
    case '23514': {
      const rule = pg.constraint ? checksByName.get(pg.constraint) : undefined;
      if (!rule) return invalid(undefined, 'A value is not valid');
      return invalid({ [rule.field]: rule.message }, rule.message);
    }
    case '23502':
      return invalid(named('Required'), 'A required field is missing');
    case '22003':
      return invalid(named('Out of range'), 'A number is out of range');
    case '22P02':
    case '22007':
    case '22008':
      return invalid(named('Wrong format'), 'A value has the wrong format');
    case '22021':
      // Text the database cannot store, such as the NUL character, in a value, a filter, a search or a cursor.
      return invalid(undefined, 'A value contains a character that cannot be stored (NUL)');
    case '40001':
    case '40P01':
      return conflict('The record changed at the same time; try again');
    default:
      // Any other data exception (class 22) is a value the client sent that the database cannot read or hold.
      if (pg.code.startsWith('22')) return invalid(named('Not valid'), 'A value is not valid');
      return undefined;
  }
}
