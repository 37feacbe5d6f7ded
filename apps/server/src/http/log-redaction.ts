import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are secrets: invitation and password-reset
 * links carry their one-time token as `?token=`, and the browser asks the
 * server for that page (index.html) before the web app reads it.
 */
const secretParams = /^(token|access_?token|code|password)$/i;

/** The request target with the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const kept = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape names no secret we know; keep it as sent.
      }
      return eq >= 0 && secretParams.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${kept.join('&')}`;
}

/**
 * What a request log line says of the request: Fastify's default fields,
 * with secrets in the query string redacted. Headers are never logged, so
 * the bearer token stays out of the log too.
 */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
