import type { TestServer } from './test-server.ts';

/** An import's answer: its status and body. */
export interface ImportAnswer {
  status: number;
  body: { created?: number; ignoredColumns?: string[]; error?: { message: string; fields?: Record<string, string> } };
}

/** `POST /api/v1/{resource}/import` with the bytes as the one part `file`, as the administrator unless a token is given. */
export async function importFile(
  server: TestServer,
  resource: string,
  name: string,
  bytes: Uint8Array | string,
  token?: string,
): Promise<ImportAnswer> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const answer = await server.fetch(`/api/v1/${resource}/import`, {
    method: 'POST',
    body: form,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  return { status: answer.status, body: (await answer.json()) as ImportAnswer['body'] };
}
