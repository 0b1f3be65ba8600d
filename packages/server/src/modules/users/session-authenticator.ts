import { CSRF_HEADER, SESSION_COOKIE } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/transaction.js';
import { type BackofficeUser, isSafeMethod, safeEqual, type UserAuthenticator } from '../../http/auth.js';
import type { UsersDeps } from './deps.js';
import { sessionTokenHash } from './log-in.js';
import { findSession } from './users.repo.js';

/** What a change is about, for the audit log: its subject and how to read its state before and after. */
export interface AuditSubject {
  subject: string;
  /** Reads the subject's state on `db` (the database, or the change's open transaction). */
  read(db: Executor): Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The subject of a user's change and its state before (set by the session authenticator). */
    auditBefore?: { subject: AuditSubject | undefined; before: unknown };
  }
}

/**
 * The backoffice session check (DECISIONS D53): the `bookie_session` cookie names an open, unexpired session; a
 * change must carry the session's CSRF token in `X-CSRF-Token`. `subjectOf` says what a change is about so that its
 * state before is kept for the audit log.
 */
export function sessionAuthenticator(
  deps: UsersDeps,
  subjectOf: (request: FastifyRequest) => AuditSubject | undefined,
): UserAuthenticator {
  return {
    async user(request) {
      const token = request.cookies?.[SESSION_COOKIE];
      if (!token) return undefined;
      const s = await findSession(deps.database.db, sessionTokenHash(token));
      if (!s || s.ended_at || new Date(s.expires_at).getTime() <= deps.clock.now()) {
        throw new DomainError('unauthorized', 'the session has ended or expired: log in again');
      }
      if (!isSafeMethod(request.method)) {
        const sent = request.headers[CSRF_HEADER];
        if (typeof sent !== 'string' || !safeEqual(sent, s.csrf_token)) {
          throw new DomainError('forbidden', `headers.${CSRF_HEADER}: missing or wrong CSRF token`, {
            field: `headers.${CSRF_HEADER}`,
          });
        }
      }
      const user: BackofficeUser = {
        id: s.user_id,
        email: s.email,
        role: s.role,
        whiteLabelId: s.white_label_id,
        sessionId: s.session_id,
      };
      return user;
    },
    async beforeChange(request) {
      const subject = subjectOf(request);
      let before: unknown = null;
      if (subject) {
        try {
          before = await subject.read(deps.database.db);
        } catch (err) {
          // a subject that does not exist (yet) has no state before; the route answers the error itself
          if (!(err instanceof DomainError)) throw err;
        }
      }
      request.auditBefore = { subject, before };
    },
  };
}

const SECRET_KEY = /secret|password|token/i;

/** A copy of `value` with the values of secret-looking keys replaced (audit rows never hold secrets). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) && (typeof v === 'string' || v === null)
          ? v === null
            ? null
            : '[redacted]'
          : redactSecrets(v),
      ]),
    );
  }
  return value;
}
