import {
  AuditPage,
  AuditQuery,
  CreatedUser,
  CreateUserBody,
  errorAnswers,
  LoginBody,
  NoContent,
  ResetPasswordBody,
  ResetPasswordResult,
  SESSION_COOKIE,
  SessionView,
} from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserAuthenticator } from '../../http/auth.js';
import { ADMIN_SECURITY, actorOf } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import { createUser } from './create-user.js';
import { usersDeps } from './deps.js';
import { logIn, sessionTokenHash } from './log-in.js';
import { resetPassword } from './reset-password.js';
import { endSession, findSession, listAuditRows } from './users.repo.js';

function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeS: number,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: maxAgeS,
  });
}

/**
 * Backoffice sessions (DECISIONS D53): log in (rate-limited per address, lockout per user), the current session
 * with its CSRF token, log out; the audit log for operators. The audit row of every change a backoffice user makes
 * is written by `auditUserChanges`, in the change's transaction.
 */
export async function usersRoutes(
  app: FastifyInstance,
  deps: Pick<PlatformServices, 'database' | 'clock' | 'config'> & { users?: UserAuthenticator | undefined },
): Promise<void> {
  const ud = usersDeps(deps);
  const tags = ['backoffice'];
  const loginLimit = deps.config.auth.loginRateLimit;

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/backoffice/api/session',
    {
      ...(loginLimit > 0
        ? { config: { rateLimit: { max: loginLimit, timeWindow: deps.config.auth.rateLimitWindowMs } } }
        : {}),
      schema: {
        tags,
        security: [],
        operationId: 'logIn',
        summary: 'Log a backoffice user in',
        description:
          'Checks the email and password and sets the HttpOnly, SameSite=Strict session cookie `bookie_session`. ' +
          'The answer carries the CSRF token every change must send as `X-CSRF-Token`. Wrong email or password: ' +
          '401, the same answer for an unknown email and for an email locked for this address (after ' +
          '`LOGIN_LOCKOUT_AFTER` failures from one address, that address waits 1, 2, 4… s per further failure, ' +
          'up to `LOGIN_LOCKOUT_S`; other addresses are not affected); too many attempts from one address: 429.',
        body: LoginBody,
        response: { 200: SessionView, ...errorAnswers(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const r = await logIn(ud, { email: req.body.email, password: req.body.password, ip: req.ip });
      setSessionCookie(req, reply, r.token, ud.settings.sessionTtlS);
      return r.session;
    },
  );

  const current = async (req: FastifyRequest) => {
    const token = req.cookies?.[SESSION_COOKIE];
    const s = token ? await findSession(deps.database.db, sessionTokenHash(token)) : undefined;
    if (!s || s.ended_at || new Date(s.expires_at).getTime() <= deps.clock.now()) {
      throw new DomainError('unauthorized', 'no backoffice session: log in');
    }
    return s;
  };

  app.get(
    '/backoffice/api/session',
    {
      schema: {
        tags,
        operationId: 'getSession',
        summary: 'The current backoffice session',
        description:
          'Who is logged in, the session’s CSRF token and its expiry; 401 without an open session.',
        security: [{ session: [] }],
        response: { 200: SessionView, ...errorAnswers(401) },
      },
    },
    async (req) => {
      const s = await current(req);
      return {
        user: { id: s.user_id, email: s.email, role: s.role, white_label_id: s.white_label_id },
        csrf_token: s.csrf_token,
        expires_at: new Date(s.expires_at).toISOString(),
      };
    },
  );

  app.delete(
    '/backoffice/api/session',
    {
      preHandler: async (req) => {
        if (!deps.users) throw new DomainError('unauthorized', 'no backoffice sessions');
        const user = await deps.users.user(req);
        if (!user) throw new DomainError('unauthorized', 'no backoffice session: log in');
        req.user = user;
      },
      schema: {
        tags,
        operationId: 'logOut',
        summary: 'Log out',
        description: 'Ends the session and clears its cookie. Needs the CSRF token like every change.',
        security: [{ session: [] }],
        response: { 204: NoContent, ...errorAnswers(401, 403) },
      },
    },
    async (req, reply) => {
      await endSession(deps.database.db, req.user?.sessionId as string, new Date(deps.clock.now()));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    },
  );

  app.post<{ Body: Static<typeof CreateUserBody> }>(
    '/admin/users',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'createUser',
        summary: 'Create a backoffice user',
        description:
          'An operator user, or a partner user (`partner_admin`, `partner_viewer`) of one white label. Without a ' +
          '`password` one is generated and returned once. Audited.',
        security: ADMIN_SECURITY,
        body: CreateUserBody,
        response: { 201: CreatedUser, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const r = await createUser(ud, {
        email: req.body.email,
        role: req.body.role,
        ...(req.body.white_label_id ? { whiteLabelId: req.body.white_label_id } : {}),
        ...(req.body.password ? { password: req.body.password } : {}),
        actor: actorOf(req),
      });
      return reply.status(201).send(r);
    },
  );

  app.post<{ Body: ResetPasswordBody }>(
    '/admin/users/reset-password',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'resetUserPassword',
        summary: "Reset a backoffice user's password",
        description:
          "Sets a user's password (generated and returned once when none is given), lifts its login lockouts from " +
          "every address and ends the user's sessions. Audited without the password.",
        security: ADMIN_SECURITY,
        body: ResetPasswordBody,
        response: { 200: ResetPasswordResult, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const r = await resetPassword(ud, {
        email: req.body.email,
        ...(req.body.password ? { password: req.body.password } : {}),
        actor: actorOf(req),
      });
      return {
        user: r.user,
        sessions_ended: r.sessionsEnded,
        ...(r.password ? { password: r.password } : {}),
      };
    },
  );

  app.get<{ Querystring: AuditQuery }>(
    '/admin/audit-log',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'listAuditLog',
        summary: 'The audit log, newest first',
        description:
          'Every change made by an operator, a partner, a backoffice user or the CLI: who (`actor`), what ' +
          '(`action`), on what (`subject`) and its details (for backoffice users the state before and after).',
        security: ADMIN_SECURITY,
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errorAnswers(400, 401, 403) },
      },
    },
    async (req) => {
      const limit = req.query.limit === undefined ? 100 : Number(req.query.limit);
      if (limit < 1 || limit > 500) throw validationError('querystring.limit', 'must be 1..500');
      const rows = await listAuditRows(deps.database.db, {
        limit: limit + 1,
        ...(req.query.before ? { beforeId: BigInt(req.query.before) } : {}),
        ...(req.query.subject ? { subjectPrefix: req.query.subject } : {}),
        ...(req.query.actor ? { actor: req.query.actor } : {}),
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map((r) => ({
          id: String(r.id),
          at: new Date(r.at).toISOString(),
          actor: r.actor,
          action: r.action,
          subject: r.subject,
          details: r.details,
        })),
        next: rows.length > limit && last ? String(last.id) : null,
      };
    },
  );
}
