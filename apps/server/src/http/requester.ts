import type { FastifyRequest } from 'fastify';
import type { Requester } from '../domain/context.ts';

/** Who asks, as the commands take it: the actor the authentication step set, the address and the browser. */
export const requesterOf = (request: FastifyRequest): Requester => ({
  actor: request.actor,
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});
