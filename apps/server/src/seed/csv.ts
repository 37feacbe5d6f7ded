import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import { columnName, currencyColumnName } from '../db/columns.ts';
import type { Row } from './generator.ts';

/** One column of a COPY: its name and how a row's value is written. */
export interface CsvColumn {
  name: string;
  value(row: Row): unknown;
}

/**
 * The columns COPY writes for an entity, from its description: every stored
 * field (generated ones are computed by the database), money as amount and
 * currency, arrays as Postgres array literals.
 */
export function csvColumns(entity: EntityDescription): CsvColumn[] {
  const columns: CsvColumn[] = [];
  for (const [name, field] of Object.entries(allFields(entity))) {
    if (field.generated) continue;
    const { storage } = fieldTypeModule(field.type);
    if (storage.currencyColumn) {
      const money = (row: Row) => row[name] as { amount: number; currency: string } | null | undefined;
      columns.push({ name: columnName(name), value: (row) => money(row)?.amount });
      columns.push({ name: currencyColumnName(name), value: (row) => money(row)?.currency });
    } else if (storage.array) {
      // Array columns are NOT NULL: a missing list is an empty one.
      columns.push({ name: columnName(name), value: (row) => pgArrayLiteral((row[name] as unknown[] | null) ?? []) });
    } else {
      columns.push({ name: columnName(name), value: (row) => row[name] });
    }
  }
  return columns;
}

const needsQuotes = /[",\r\n\\]/;

/**
 * One CSV field: null is an empty unquoted field (COPY reads it as NULL), an
 * empty string is `""`; quotes, separators, line breaks and backslashes (a
 * lone `\.` would end the data) are quoted.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = typeof value === 'string' ? value : String(value);
  if (text === '' || needsQuotes.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** One row as a CSV line for COPY, without its line break. */
export function csvLine(columns: readonly CsvColumn[], row: Row): string {
  // join builds one flat string, where += would build a rope of many pieces per row.
  return columns.map((c) => csvField(c.value(row))).join(',');
}

/** Rows as CSV text for COPY. */
export function encodeCsv(columns: readonly CsvColumn[], rows: Iterable<Row>): string {
  const lines: string[] = [];
  for (const row of rows) lines.push(csvLine(columns, row));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
