import { apiRequest, queryString, toFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';

/** How many calls of a bulk action run at once. */
const BULK_CONCURRENCY = 4;

/** The outcome of one action over many rows: the rows it worked for, and the failures with the server's message. */
export interface BulkOutcome<T> {
  done: T[];
  failed: { id: number; message: string }[];
}

/** Runs `call` for every row, a few at a time; a failure does not stop the others. */
export async function forEachRow<T>(rows: readonly Row[], call: (row: Row) => Promise<T>): Promise<BulkOutcome<T>> {
  const outcome: BulkOutcome<T> = { done: [], failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++] as Row;
      try {
        outcome.done.push(await call(row));
      } catch (error) {
        outcome.failed.push({ id: row.id, message: toFailure(error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, rows.length) }, worker));
  return outcome;
}

/** DELETE /api/v1/{resource}/{id}. */
export function deleteRecord(resource: string, id: number, token: string | null): Promise<unknown> {
  return apiRequest(`/api/v1/${resource}/${id}`, { method: 'DELETE', token });
}

/** PATCH /api/v1/{resource}/{id} with the row's version as If-Match; answers the record as it now is. */
export function patchRecord(resource: string, row: Row, changes: Record<string, unknown>, token: string | null) {
  return apiRequest<Row>(`/api/v1/${resource}/${row.id}`, {
    method: 'PATCH',
    body: changes,
    token,
    headers: { 'if-match': String(row.version ?? '') },
  });
}

/** Records of a resource whose searchable fields match `q`, named by their display field. */
export async function searchRecords(resource: string, display: string, q: string, token: string | null) {
  const query: [string, string][] = [
    ['select', display],
    ['pageSize', '20'],
  ];
  if (q.trim()) query.push(['q', q.trim()]);
  const answer = await apiRequest<{ data: Row[] }>(`/api/v1/${resource}?${queryString(query)}`, { token });
  return answer.data.map((row) => ({ value: String(row.id), label: String(row[display] ?? `#${row.id}`) }));
}

/** The display name of one record. */
export async function recordName(resource: string, display: string, id: number, token: string | null) {
  const row = await apiRequest<Row>(`/api/v1/${resource}/${id}?${queryString([['select', display]])}`, { token });
  return String(row[display] ?? `#${id}`);
}
