import { emailSchema, passwordSchema } from '@data-platform/shared/auth/password-policy';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../auth/audit.ts';
import { verifyNothing, verifyPassword } from '../auth/passwords.ts';
import { createSession, revokeSession, revokeUserSessions } from '../auth/sessions.ts';
import { clear, type Limiter, record, retryAfter, take } from '../auth/throttle.ts';
import { consumeUserToken, issueUserToken } from '../auth/user-tokens.ts';
import { requestAccess } from '../domain/access-requests.ts';
import { assertAcceptablePassword, currentUser, setPassword } from '../domain/accounts.ts';
import type { CommandContext, Requester } from '../domain/context.ts';
import { invalid, refused, tooMany, unauthenticated } from '../domain/errors.ts';
import { acceptInvitation } from '../domain/invitations.ts';
import { errorBodySchema } from '../http/errors.ts';
import { requesterOf } from '../http/requester.ts';

const sessionInfo = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

const signedIn = z.object({ accessToken: z.string(), user: z.record(z.string(), z.unknown()) });
const accepted = z.object({ message: z.string() });

/** Sign-in, sign-out, the current user, access requests, password reset and change, invitation acceptance. */
export function registerAuthRoutes(app: FastifyInstance, context: CommandContext): void {
  const { database, config, mailer } = context;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Authentication'];
  // Failed sign-ins slow the guesser, not the owner. Over any 15 minutes:
  // - 5 per account from one address: the one guessing from there waits, while
  //   the owner, from their own address, still gets in with the right password;
  // - 30 per address, whichever accounts: one machine cannot spray many accounts;
  // - 50 per account from all addresses together: guessing spread over many
  //   addresses gets at most 50 tries a quarter hour (4,800 a day, against
  //   passwords of 12 characters or more that are neither common nor personal).
  //   Only this ceiling can hold the owner up too, and reaching it takes ten
  //   addresses at their own limit.
  // A success clears only the (account, address) count: the other counts are others' guesses.
  // The counts are in the database (auth/throttle.ts): every server process over it enforces one limit.
  const failuresByAccountAndAddress: Limiter = { name: 'signInByAccountAndAddress', limit: 5, windowMs: 15 * 60_000 };
  const failuresByAddress: Limiter = { name: 'signInByAddress', limit: 30, windowMs: 15 * 60_000 };
  const failuresByAccount: Limiter = { name: 'signInByAccount', limit: 50, windowMs: 15 * 60_000 };
  const changeFailuresByUser: Limiter = { name: 'passwordChangeByUser', limit: 5, windowMs: 15 * 60_000 };
  const mailsByAddress: Limiter = { name: 'mailsByAddress', limit: 10, windowMs: 60 * 60_000 };
  const mailsByAccount: Limiter = { name: 'mailsByAccount', limit: 3, windowMs: 60 * 60_000 };

  /** Counts a mail asked for, in one statement, unless one of its limits is reached (then 429). */
  const throttleMail = async (request: FastifyRequest, email: string) => {
    const wait = await take(database, [
      [mailsByAddress, request.ip],
      [mailsByAccount, email],
    ]);
    if (wait > 0) throw tooMany(wait);
  };

  const mailResetLink = async (email: string, { ip, language }: Requester) => {
    const [user] = await database.rows<{ id: number }>(
      sql`select id from users where email = ${email} and status = 'active'`,
    );
    if (!user) return;
    const token = await issueUserToken(database, Number(user.id), 'passwordReset', config.passwordResetTtlMs);
    await mailer.send({
      to: email,
      template: 'passwordReset',
      language,
      values: {
        link: `${config.publicUrl}/reset-password?token=${token}`,
        minutes: config.passwordResetTtlMs / 60_000,
      },
    });
    await recordAudit(database, {
      type: 'passwordResetRequested',
      actorId: null,
      ip,
      targetUserId: Number(user.id),
      targetEmail: email,
    });
  };

  api.post('/api/v1/auth/login', {
    config: { public: true },
    schema: {
      tags,
      summary: 'Sign in',
      description:
        'Answers `{ accessToken, user }`; send `Authorization: Bearer <accessToken>`. A wrong password and an unknown email get the same answer. Repeated failures answer 429 with Retry-After.',
      body: z.strictObject({ email: emailSchema, password: z.string().min(1, 'Required').max(1000) }),
      response: {
        200: signedIn,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        429: errorBodySchema,
      },
    },
    handler: async (request) => {
      const { email, password } = request.body;
      const pair = `${email}\n${request.ip}`;
      const failures = [
        [failuresByAccountAndAddress, pair],
        [failuresByAddress, request.ip],
        [failuresByAccount, email],
      ] as const;
      const wait = await retryAfter(database, failures);
      if (wait > 0) throw tooMany(wait);
      const [found] = await database.rows<{ id: number; status: string; password_hash: string }>(
        sql`select u.id, u.status, c.password_hash from users u join user_credentials c on c.user_id = u.id
          where u.email = ${email}`,
      );
      const valid = found ? await verifyPassword(found.password_hash, password) : await verifyNothing(password);
      if (!found || !valid || found.status === 'deleted') {
        await record(database, failures);
        await recordAudit(database, {
          type: 'signInFailed',
          actorId: null,
          ip: request.ip,
          targetUserId: found ? Number(found.id) : null,
          targetEmail: email,
        });
        throw unauthenticated('The email or the password is not right', 'invalid_credentials');
      }
      // Only someone who knows the password learns the account's state.
      if (found.status === 'pending') {
        throw refused('Your access request is waiting for an administrator', undefined, 'account_pending');
      }
      if (found.status === 'rejected') {
        throw refused('Your access request was declined by an administrator', undefined, 'account_rejected');
      }
      if (found.status === 'disabled') {
        throw refused('Your account is disabled; ask an administrator', undefined, 'account_disabled');
      }
      await clear(database, [failuresByAccountAndAddress, pair]);
      const userId = Number(found.id);
      const accessToken = await createSession(database, config, userId, sessionInfo(request));
      await recordAudit(database, { type: 'signIn', actorId: userId, ip: request.ip, targetUserId: userId });
      return { accessToken, user: await currentUser(database, userId) };
    },
  });

  api.post('/api/v1/auth/logout', {
    config: { revokesSessions: true },
    schema: { tags, summary: 'Sign out (revokes the token)', response: { 204: z.null(), 401: errorBodySchema } },
    handler: async (request, reply) => {
      await revokeSession(database, request.actor.sessionId as number);
      const { userId } = request.actor;
      await recordAudit(database, { type: 'signOut', actorId: userId, ip: request.ip, targetUserId: userId });
      return reply.code(204).send(null);
    },
  });

  api.get('/api/v1/auth/me', {
    schema: {
      tags,
      summary: 'The signed-in user with role and permissions',
      response: { 200: z.record(z.string(), z.unknown()), 401: errorBodySchema },
    },
    handler: async (request) => currentUser(database, request.actor.userId as number),
  });

  api.post('/api/v1/auth/register', {
    config: { public: true },
    schema: {
      tags,
      summary: 'Ask for an account',
      description:
        'Creates a pending user that an administrator approves or rejects. The answer is the same whether or not the email is known.',
      body: z.strictObject({
        email: emailSchema,
        firstName: z.string().trim().min(1, 'Required').max(150),
        lastName: z.string().trim().min(1, 'Required').max(150),
        password: passwordSchema,
      }),
      response: { 202: accepted, 400: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request, reply) => {
      const { email, password } = request.body;
      // A password the policy refuses is told before the request counts against the mail limits.
      assertAcceptablePassword(password, email);
      await throttleMail(request, email);
      await requestAccess(context, requesterOf(request), request.body);
      return reply.code(202).send({ message: 'Thank you. An administrator will review your request.' });
    },
  });

  api.post('/api/v1/auth/forgot-password', {
    config: { public: true },
    schema: {
      tags,
      summary: 'Mail a password reset link',
      description: `Always answers the same. When the account exists and is active, a single-use link valid ${config.passwordResetTtlMs / 60_000} minutes is mailed.`,
      body: z.strictObject({ email: emailSchema }),
      response: { 202: accepted, 400: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request, reply) => {
      const { email } = request.body;
      await throttleMail(request, email);
      // Not awaited: neither the time the lookup and the mail take nor a failed
      // delivery may tell whether an account uses this email.
      mailResetLink(email, requesterOf(request)).catch((err) =>
        request.log.error({ err }, 'password reset mail not sent'),
      );
      return reply.code(202).send({ message: 'If an account uses this email, a reset link is on its way.' });
    },
  });

  api.post('/api/v1/auth/reset-password', {
    config: { public: true, revokesSessions: true },
    schema: {
      tags,
      summary: 'Set a new password with a mailed token',
      description: 'The token works once; every session of the user is revoked.',
      body: z.strictObject({ token: z.string().min(1, 'Required').max(200), password: passwordSchema }),
      response: { 200: accepted, 400: errorBodySchema },
    },
    handler: async (request) => {
      const { token, password } = request.body;
      await database.db.transaction(async (tx) => {
        const { userId, email } = await consumeUserToken(database, token, 'passwordReset', tx);
        // Refused after the token is taken, inside the transaction: the link still works for a better password.
        assertAcceptablePassword(password, email);
        await setPassword(database, userId, password, tx);
        await revokeUserSessions(database, userId, tx);
        await recordAudit(
          database,
          { type: 'passwordReset', actorId: userId, ip: request.ip, targetUserId: userId },
          tx,
        );
      });
      return { message: 'Your password is changed. Sign in with it.' };
    },
  });

  api.post('/api/v1/auth/accept-invitation', {
    config: { public: true },
    schema: {
      tags,
      summary: 'Accept an invitation and sign in',
      body: z.strictObject({
        token: z.string().min(1, 'Required').max(200),
        firstName: z.string().trim().min(1, 'Required').max(150),
        lastName: z.string().trim().min(1, 'Required').max(150),
        password: passwordSchema,
      }),
      response: { 200: signedIn, 400: errorBodySchema },
    },
    handler: async (request) => acceptInvitation(context, requesterOf(request), request.body),
  });

  api.post('/api/v1/auth/change-password', {
    config: { revokesSessions: true },
    schema: {
      tags,
      summary: 'Change your own password',
      description: 'Needs the current password; every other session of the user is revoked.',
      body: z.strictObject({ currentPassword: z.string().min(1, 'Required').max(1000), password: passwordSchema }),
      response: { 200: accepted, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request) => {
      const { currentPassword, password } = request.body;
      const userId = request.actor.userId as number;
      const wait = await retryAfter(database, [[changeFailuresByUser, String(userId)]]);
      if (wait > 0) throw tooMany(wait);
      const [credentials] = await database.rows<{ password_hash: string; email: string }>(
        sql`select c.password_hash, u.email from user_credentials c join users u on u.id = c.user_id
          where c.user_id = ${userId}`,
      );
      if (!credentials || !(await verifyPassword(credentials.password_hash, currentPassword))) {
        await record(database, [[changeFailuresByUser, String(userId)]]);
        throw invalid({ currentPassword: 'This is not your current password' });
      }
      assertAcceptablePassword(password, credentials.email);
      await database.db.transaction(async (tx) => {
        await setPassword(database, userId, password, tx);
        await revokeUserSessions(database, userId, tx, request.actor.sessionId ?? undefined);
        await recordAudit(
          database,
          { type: 'passwordChanged', actorId: userId, ip: request.ip, targetUserId: userId },
          tx,
        );
      });
      return { message: 'Your password is changed.' };
    },
  });
}
