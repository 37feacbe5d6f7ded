import type { ImportJob, ImportPreview } from '@data-platform/shared/imports';

/** What the import job helpers need of a server: fetch as a signed-in user. */
interface Fetcher {
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

const withToken = (token?: string): RequestInit => (token ? { headers: { authorization: `Bearer ${token}` } } : {});

/** `POST /api/v1/imports/uploads`: the file's preview, or the error answer. */
export async function uploadImport(
  server: Fetcher,
  entity: string,
  name: string,
  bytes: Uint8Array | string,
  token?: string,
): Promise<{ status: number; body: ImportPreview & { error?: { message: string; fields?: Record<string, string> } } }> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const answer = await server.fetch(`/api/v1/imports/uploads?entity=${entity}`, {
    method: 'POST',
    body: form,
    ...withToken(token),
  });
  return { status: answer.status, body: (await answer.json()) as ImportPreview };
}

/** `POST /api/v1/imports`: the job started (202), or the error answer. */
export async function startImport(
  server: Fetcher,
  body: Record<string, unknown>,
  token?: string,
): Promise<{ status: number; body: ImportJob & { error?: { message: string; fields?: Record<string, string> } } }> {
  const answer = await server.fetch('/api/v1/imports', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as ImportJob };
}

/** `POST /api/v1/imports/file` with a multipart body as built: the job started (202) and its Location, or the error answer. */
export async function postImportFile(
  server: Fetcher,
  form: FormData,
  token?: string,
): Promise<{
  status: number;
  location: string | null;
  body: ImportJob & { error?: { message: string; fields?: Record<string, string> } };
}> {
  const answer = await server.fetch('/api/v1/imports/file', { method: 'POST', body: form, ...withToken(token) });
  return { status: answer.status, location: answer.headers.get('location'), body: (await answer.json()) as ImportJob };
}

/** `POST /api/v1/imports/file`: the settings (JSON text, or the text given), then the file. */
export function importFile(
  server: Fetcher,
  settings: Record<string, unknown> | string,
  name: string,
  bytes: Uint8Array | string,
  token?: string,
): ReturnType<typeof postImportFile> {
  const form = new FormData();
  form.append('settings', typeof settings === 'string' ? settings : JSON.stringify(settings));
  form.append('file', new Blob([bytes]), name);
  return postImportFile(server, form, token);
}

export async function getImport(
  server: Fetcher,
  id: number,
  token?: string,
): Promise<{ status: number; body: ImportJob }> {
  const answer = await server.fetch(`/api/v1/imports/${id}`, withToken(token));
  return { status: answer.status, body: (await answer.json()) as ImportJob };
}

const ended = new Set(['succeeded', 'failed', 'cancelled', 'rolledBack', 'undone']);

/** Polls the job until it has ended (or `until` says so), failing after `timeoutMs`. */
export async function waitForImport(
  server: Fetcher,
  id: number,
  until: (job: ImportJob) => boolean = (job) => ended.has(job.status),
  timeoutMs = 60_000,
): Promise<ImportJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await getImport(server, id);
    if (status !== 200) throw new Error(`GET /api/v1/imports/${id} answered ${status}`);
    if (until(body)) return body;
    if (Date.now() > deadline) throw new Error(`Import ${id} is still ${body.status}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Uploads, starts with the preview's suggested mapping unless one is given, and waits for the end. */
export async function importAll(
  server: Fetcher,
  entity: string,
  name: string,
  bytes: Uint8Array | string,
  settings: Record<string, unknown> = {},
): Promise<ImportJob> {
  const uploaded = await uploadImport(server, entity, name, bytes);
  if (uploaded.status !== 201) throw new Error(`Upload answered ${uploaded.status}: ${JSON.stringify(uploaded.body)}`);
  const started = await startImport(server, {
    entity,
    uploadId: uploaded.body.uploadId,
    mapping: uploaded.body.columns.map((c) => c.target),
    ...settings,
  });
  if (started.status !== 202) throw new Error(`Start answered ${started.status}: ${JSON.stringify(started.body)}`);
  return waitForImport(server, started.body.id);
}
