import { apiRequest, queryString } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';

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
