import http from 'node:http';

export interface Upload {
  /** Resolves once the whole request has been handed to the network. */
  sent: Promise<void>;
  /** The server's answer; rejects when the connection ends without one (a killed server). */
  answer: Promise<{ status: number; body: string }>;
  /** Sends the rest of a paused upload. */
  resume(): void;
}

/**
 * POSTs one file as multipart/form-data (part `file`) over a connection of
 * its own, telling when the body has left, which fetch does not. With `pause`
 * only the first half of the body goes until `resume()`: a request the server
 * has begun and cannot have finished.
 */
export async function startUpload(
  server: { url: string; token: string },
  path: string,
  file: { name: string; content: string },
  { pause = false } = {},
): Promise<Upload> {
  const form = new FormData();
  form.append('file', new Blob([file.content]), file.name);
  // The encoding fetch would send, boundary and all, as bytes.
  const encoded = new Request('http://upload.invalid/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const request = http.request(new URL(path, server.url), {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': encoded.headers.get('content-type') ?? '',
      'content-length': String(body.length),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
  });
  // A test that kills the server may never ask for the answer.
  answer.catch(() => {});
  const half = pause ? Math.floor(body.length / 2) : body.length;
  request.write(body.subarray(0, half));
  let resume = () => {};
  const sent = new Promise<void>((resolve) => {
    resume = () => request.end(body.subarray(half), () => resolve());
  });
  if (!pause) resume();
  return { sent, answer, resume };
}

/** A contacts CSV of `rows` valid rows in `city` (their marker); `lastEmail` is the last row's email. */
export function contactsCsv(rows: number, city: string, lastEmail?: string): string {
  const tag = Math.random().toString(36).slice(2, 10);
  const lines = ['First name,Last name,Email,City'];
  for (let i = 1; i <= rows; i++) {
    const email = i === rows && lastEmail ? lastEmail : `row-${i}-${tag}@fault.example`;
    lines.push(`Row,Number ${i},${email},${city}`);
  }
  return `${lines.join('\n')}\n`;
}
