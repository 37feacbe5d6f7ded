import { allFields } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { AppError } from '../http/errors.ts';
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
    if (field.type === 'money') columns.set(currencyColumnName(name), `${name}.currency`);
  }
  fieldsByColumn.set(entity.table, columns);
}

/** constraint name → the field and message of an entity's check */
const checksByName = new Map(
  entityList.flatMap((entity) => (entity.checks ?? []).map((rule) => [rule.name, rule] as const)),
);

/** Drizzle wraps driver errors; the Postgres one is somewhere down the cause chain. */
function pgErrorOf(error: unknown): PgError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const candidate = current as Partial<PgError> & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate as PgError;
    current = candidate.cause;
  }
  return undefined;
}

function fieldsOf(pg: PgError): string[] {
  const table = pg.table ? fieldsByColumn.get(pg.table) : undefined;
  const columns = pg.column ? [pg.column] : (/Key \(([^)]*)\)/.exec(pg.detail ?? '')?.[1]?.split(', ') ?? []);
  return columns.map((c) => table?.get(c) ?? c);
}

/** Turns constraint violations into 400/409 answers that name the field. */
export function mapDatabaseError(error: unknown): AppError | undefined {
  const pg = pgErrorOf(error);
  if (!pg) return undefined;
  const fields = fieldsOf(pg);
  const named = (message: string) => Object.fromEntries(fields.map((f) => [f, message]));
  switch (pg.code) {
    case '23505':
      return new AppError(
        409,
        'conflict',
        `Another record already has this ${fields.join(' and ')}`,
        named('Already used'),
      );
    case '23503':
      if (/is still referenced/.test(pg.detail ?? '')) {
        return new AppError(409, 'conflict', 'Other records still refer to this one');
      }
      return new AppError(400, 'validation_failed', 'A referenced record does not exist', named('No such record'));
    case '23514': {
      const rule = pg.constraint ? checksByName.get(pg.constraint) : undefined;
      if (!rule) return new AppError(400, 'validation_failed', 'A value is not valid');
      return new AppError(400, 'validation_failed', rule.message, { [rule.field]: rule.message });
    }
    case '23502':
      return new AppError(400, 'validation_failed', 'A required field is missing', named('Required'));
    case '22003':
      return new AppError(400, 'validation_failed', 'A number is out of range', named('Out of range'));
    case '22P02':
    case '22007':
    case '22008':
      return new AppError(400, 'validation_failed', 'A value has the wrong format', named('Wrong format'));
    case '22021':
      // Text the database cannot store, such as the NUL character, in a value, a filter, a search or a cursor.
      return new AppError(400, 'validation_failed', 'A value contains a character that cannot be stored (NUL)');
    case '40001':
    case '40P01':
      return new AppError(409, 'conflict', 'The record changed at the same time; try again');
    default:
      // Any other data exception (class 22) is a value the client sent that the database cannot read or hold.
      if (pg.code.startsWith('22'))
        return new AppError(400, 'validation_failed', 'A value is not valid', named('Not valid'));
      return undefined;
  }
}
