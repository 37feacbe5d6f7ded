import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

const requestLanguage = new AsyncLocalStorage<string | undefined>();

/**
 * The first of `offered` an Accept-Language header asks for, by its weights
 * (`fr-CA;q=0.9, en;q=0.8` → `fr`); undefined when it names none.
 */
export function languageOfHeader<L extends string>(header: string | undefined, offered: readonly L[]): L | undefined {
  if (!header) return undefined;
  const asked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return asked.map((entry) => entry.base).find((base): base is L => (offered as readonly string[]).includes(base));
}

/** The Accept-Language of the request being served, if any. */
export function currentAcceptLanguage(): string | undefined {
  return requestLanguage.getStore();
}

/**
 * Remembers each request's Accept-Language for the mails its handler sends,
 * so that no command has to carry it. Users store no language of their own,
 * so the request's is the best guess: one's own for a reset link, the
 * inviting or approving administrator's for an invitation or a decision.
 * Set before the handler, after the body is parsed (a context entered
 * earlier can be lost across body parsing).
 */
export function installMailLanguage(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    requestLanguage.run(request.headers['accept-language'], done);
  });
}
