import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** Writes a Content-Security-Policy from its directives, one place for every policy below. */
const policy = (directives: Record<string, readonly string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');

/**
 * The web app's policy: nothing from elsewhere, no plugins, no framing, forms
 * only to us, scripts only our own files (the theme boot script is a file, not
 * inline; no eval). Styles also allow 'unsafe-inline': Mantine writes its CSS
 * variables and responsive style props as <style> elements at run time, so a
 * policy without it leaves the app unstyled (docs/decisions/0011). The token is in localStorage, which CSS
 * cannot read, so inline styles cannot leak it.
 */
export const webAppContentSecurityPolicy = policy({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
});

/**
 * The API reference at /api/docs (@fastify/swagger-ui) needs no more than the
 * web app (its scripts are files too, its styles inline). Given to the plugin
 * as its `staticCSP`, so only its routes carry it.
 */
export const apiReferenceContentSecurityPolicy = webAppContentSecurityPolicy;

/**
 * Everything that is not a page of the web app (JSON, downloads, errors): a
 * browser opening it directly runs and loads nothing, so an uploaded HTML or
 * SVG file cannot act as a page of our origin.
 */
export const apiContentSecurityPolicy = policy({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });

/** Every browser feature the app does not use, off for it and any frame. */
const permissionsPolicy = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** Hashed build output (Vite's assets/): its name changes with its content, so browsers may keep it. */
const HASHED_ASSET = /^\/assets\/[^/]+-[\w-]{8,}\.\w+$/;

/** The headers every response starts with; a web app page or a hashed asset then changes its policy and caching. */
function defaultHeaders(config: Config): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    // Reset and invitation links carry their token in the query string: no page sends its address anywhere.
    'referrer-policy': 'no-referrer',
    'permissions-policy': permissionsPolicy,
    'cross-origin-opener-policy': 'same-origin',
    // With COOP, this makes the app's pages cross-origin isolated: the browser keeps them in a process of their
    // own (no other site's data within reach of a side channel), and their clock reads to 5 µs instead of 100 µs
    // with random jitter. The app loads nothing from elsewhere (the CSP says 'self'), so nothing is refused.
    'cross-origin-embedder-policy': 'require-corp',
    'cross-origin-resource-policy': 'same-origin',
    // frame-ancestors says the same to browsers that read CSP; this is for those that do not.
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'content-security-policy': apiContentSecurityPolicy,
    // API answers carry a firm's data: no shared machine or proxy keeps a copy. A route that
    // sets its own caching (the static files) replaces this.
    'cache-control': 'no-store',
    // Only when the operator says users reach us over TLS (PUBLIC_URL): HSTS over plain HTTP is ignored,
    // and behind a proxy that stops serving TLS it would lock users out for a year.
    ...(config.publicUrl.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}

/** Is this a page of the web app: HTML not answered by an API route (by the matched route, never the raw address). */
function isWebAppPage(request: FastifyRequest, reply: FastifyReply): boolean {
  const type = String(reply.getHeader('content-type') ?? '');
  return type.startsWith('text/html') && !request.routeOptions.url?.startsWith('/api/');
}

/**
 * Sets the browser security headers on every response: API answers, the web
 * build, the index.html fallback, errors and 404s. The defaults go on the raw
 * response as it arrives, because Fastify answers some malformed requests (a
 * bad percent-encoding in the path) itself, before any hook; headers a route
 * sets replace them. Install before any route is registered so every route
 * inherits the hook. /api/docs replaces the Content-Security-Policy with
 * apiReferenceContentSecurityPolicy through the plugin's `staticCSP` option.
 */
export function installSecurityHeaders(app: FastifyInstance, config: Config): void {
  const defaults = Object.entries(defaultHeaders(config));
  app.server.prependListener('request', (_request, response) => {
    for (const [name, value] of defaults) response.setHeader(name, value);
  });
  app.addHook('onSend', async (request, reply) => {
    if (HASHED_ASSET.test(request.routeOptions.url ?? '')) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
    if (reply.statusCode === 304) {
      // A 304 refreshes the stored answer's headers with its own, and has no type to choose a policy by:
      // the API's defaults here would put `default-src 'none'` on a cached page. The stored ones stay.
      reply.raw.removeHeader('content-security-policy');
      reply.raw.removeHeader('cache-control');
    } else if (isWebAppPage(request, reply)) {
      reply.header('content-security-policy', webAppContentSecurityPolicy);
      // The page names the hashed assets of one build: ask again on every visit, so a new build shows at once.
      reply.header('cache-control', 'no-cache');
    }
  });
}
