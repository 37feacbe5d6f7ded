import { toFailure } from './http.ts';

/** How many calls of a bulk action run at once. */
const BULK_CONCURRENCY = 4;

/** The outcome of one action over many rows: what it gave for the rows it worked for, and each failure's reason. */
export interface BulkOutcome<T> {
  done: T[];
  failed: { id: number; name: string; message: string }[];
}

/** Runs `call` for every row, a few at a time; a failure does not stop the others. Failures keep the rows' order. */
export async function forEachRow<R extends { id: number; name: string }, T>(
  rows: readonly R[],
  call: (row: R) => Promise<T>,
): Promise<BulkOutcome<T>> {
  const done: T[] = [];
  const failed: (BulkOutcome<T>['failed'][number] & { index: number })[] = [];
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index] as R;
      try {
        done.push(await call(row));
      } catch (error) {
        failed.push({ index, id: row.id, name: row.name, message: toFailure(error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, rows.length) }, worker));
  return {
    done,
    failed: failed.sort((a, b) => a.index - b.index).map(({ index: _index, ...failure }) => failure),
  };
}
