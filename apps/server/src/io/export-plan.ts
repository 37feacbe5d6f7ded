import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { ExportFormat } from '@data-platform/shared/export-formats';
import { type ListQuery, parseListQueryString } from '@data-platform/shared/query/list-query';
import { limitJoins, readableScope, readerDescription } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import type { ListScope } from '../crud/list-compiler.ts';
import type { Database } from '../db/client.ts';
import { type ExportColumn, exportColumns } from './export.ts';

/** What an export writes for one reader: see `exportPlan`. */
export interface ExportPlan {
  /** The entity as the reader may read it (their custom fields, without fields they may not read). */
  described: EntityDescription;
  /** The list, with the joins that name references. */
  query: ListQuery;
  columns: ExportColumn[];
  /** The rows the reader may read. */
  scope: ListScope | undefined;
}

/**
 * What an export of the list that `params` describe (the query-string form:
 * `select`, `filter[field][op]`, `sort`, `q`) writes for `actor`: the
 * streamed export and an export job read the parameters alike.
 * @throws QueryError naming each bad parameter, or forbidden for a join the actor may not read
 */
export async function exportPlan(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
  params: Record<string, unknown>,
): Promise<ExportPlan> {
  const described = await readerDescription(database, entity, actor);
  const parsed = parseListQueryString(described, params);
  // References are written by name: their joins are read like any other, so they need reading rights too.
  const { columns, join } = exportColumns(described, parsed.select);
  const query = { ...parsed, join: [...parsed.join, ...join] };
  limitJoins(actor, query);
  return { described, query, columns, scope: readableScope(entity, actor) };
}

/** An export's file name: the entity and the day it was asked for (`companies-2025-01-31.csv`). */
export function exportFileName(entity: EntityDescription, format: ExportFormat, at = new Date()): string {
  return `${entity.name}-${at.toISOString().slice(0, 10)}.${format}`;
}
