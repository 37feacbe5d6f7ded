import type { FastifyRequest } from 'fastify';
import type { Requester } from '../domain/context.ts';
import { mailLanguages } from '../mail/mailer.ts';
import { languageOfHeader } from '../mail/request-language.ts';

/**
 * Who asks, as the commands take it: the actor the authentication step set,
 * the address, the browser and the language it asks for (Accept-Language).
 */
export const requesterOf = (request: FastifyRequest): Requester => ({
  actor: request.actor,
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  language: languageOfHeader(request.headers['accept-language'], mailLanguages),
});
