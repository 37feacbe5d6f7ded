import { bookkeepingFields } from '@data-platform/shared/duplicates';
import { allFields } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { HistoryEntry, HistoryPage } from '@data-platform/shared/history';
import { expect } from 'vitest';
import type { ApiClient, Row } from './factories.ts';

/**
 * Checks on record history (docs/decisions/0028) that hold whichever path
 * wrote the record: a write that skipped its entry leaves a timeline that no
 * longer tells the record's values.
 */

/** A record's whole history, oldest first (the API answers newest first, by pages). */
export async function fullHistory(api: ApiClient, resource: string, id: number): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  let cursor: string | null = null;
  do {
    const answer: { status: number; body: HistoryPage } = await api.get<HistoryPage>(
      `/api/v1/${resource}/${id}/history`,
      { limit: 100, cursor: cursor ?? undefined },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    entries.push(...answer.body.data);
    cursor = answer.body.nextCursor;
  } while (cursor);
  return entries.reverse();
}

/** The entry's changes as `{ field: [old, new] }`. */
export const changesOf = (entry: HistoryEntry | undefined): Record<string, [unknown, unknown]> =>
  Object.fromEntries((entry?.changes ?? []).map((c) => [c.field, [c.old, c.new]]));

/**
 * The record's values as its own entries tell them (created, then each
 * update's new values; gone after a deletion, back with a restore), or null
 * when the last of them deleted it.
 */
export function valuesFromHistory(entries: readonly HistoryEntry[]): Record<string, unknown> | null {
  let values: Record<string, unknown> | null = null;
  for (const entry of entries) {
    if (entry.subject !== null) continue;
    if (entry.action === 'deleted') {
      values = null;
      continue;
    }
    // A record brought back starts again from the values its entry keeps.
    const base: Record<string, unknown> = entry.action === 'created' || values === null ? {} : values;
    for (const change of entry.changes) base[change.field] = change.new;
    values = base;
  }
  return values;
}

/** An empty value as history keeps it: never written. */
const empty = (value: unknown) => value === null || value === undefined || (Array.isArray(value) && value.length === 0);

/**
 * Asserts that the record's history, folded, gives the record as the API
 * reads it now (every stored field, custom fields included; generated ones
 * follow from them), or that it was deleted when the record is gone.
 */
export async function expectHistoryTellsRecord(api: ApiClient, resource: string, id: number): Promise<void> {
  const entity = findEntity(resource);
  if (!entity) throw new Error(`No entity ${resource}`);
  const told = valuesFromHistory(await fullHistory(api, resource, id));
  const read = await api.get<Row>(`/api/v1/${resource}/${id}`);
  if (read.status === 404) {
    expect(told, `${resource} ${id} is gone, yet its history does not end with its deletion`).toBeNull();
    return;
  }
  expect(read.status).toBe(200);
  expect(told, `${resource} ${id} exists, yet its history says it was deleted or never created`).not.toBeNull();
  const fields = allFields(entity);
  for (const [name, value] of Object.entries(read.body)) {
    if (bookkeepingFields.has(name) || fields[name]?.generated) continue;
    const kept = told?.[name];
    expect(empty(kept) ? null : kept, `${resource} ${id}: ${name} as its history tells it`).toEqual(
      empty(value) ? null : value,
    );
  }
}
