/**
 * Backoffice users and sessions (the environments and tools rule): login with email and password, an HttpOnly SameSite=Strict session
 * cookie, and a CSRF token every change must carry in the `X-CSRF-Token` header.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';

/** Roles of backoffice users: an operator sees every white label; partner users see their own only. */
export const USER_ROLES = ['operator', 'partner_admin', 'partner_viewer'] as const;
/** A backoffice role. */
export type UserRole = (typeof USER_ROLES)[number];

/** Name of the session cookie. */
export const SESSION_COOKIE = 'bookie_session';
/** Header that carries the CSRF token of the session on every change. */
export const CSRF_HEADER = 'x-csrf-token';
/** Header an operator user sets to act on a white label's partner operations. */
export const WHITE_LABEL_HEADER = 'x-white-label-id';

/** Body of `POST /backoffice/api/session` (login). */
export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  {
    additionalProperties: false,
    examples: [{ email: 'ops@example.com', password: 'correct horse battery' }],
  },
);
/** Body of the login. */
export type LoginBody = Static<typeof LoginBody>;

/** A backoffice user as shown (never its password hash). */
export const UserView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.Union(USER_ROLES.map((r) => Type.Literal(r))),
  white_label_id: Type.Union([Type.String(), Type.Null()]),
});
/** A backoffice user. */
export type UserView = Static<typeof UserView>;

/** The current session: who, its CSRF token (send it as `X-CSRF-Token` on every change), and its expiry. */
export const SessionView = Type.Object(
  { user: UserView, csrf_token: Type.String(), expires_at: Type.String() },
  {
    examples: [
      {
        user: { id: 'usr_2b9c', email: 'ops@example.com', role: 'operator', white_label_id: null },
        csrf_token: 'k3J8yF0c1m2Qz5tq7wPpRA',
        expires_at: '2026-05-01T20:00:00.000Z',
      },
    ],
  },
);
/** The current session. */
export type SessionView = Static<typeof SessionView>;

/** One row of the audit log: who, what, on which subject, and the details (before and after for user changes). */
export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  subject: Type.String(),
  details: Type.Unknown(),
});
/** One row of the audit log. */
export type AuditEntry = Static<typeof AuditEntry>;

/** A page of the audit log, newest first. */
export const AuditPage = Type.Object(
  { items: Type.Array(AuditEntry), next: Type.Union([Type.String(), Type.Null()]) },
  {
    examples: [
      {
        items: [
          {
            id: '42',
            at: '2026-05-01T12:00:00.000Z',
            actor: 'user:ops@example.com',
            action: 'PATCH /admin/white-labels/:id',
            subject: 'white_label:wl_1',
            details: { before: { allowlist: [] }, after: { allowlist: ['203.0.113.7'] } },
          },
        ],
        next: null,
      },
    ],
  },
);
/** A page of the audit log. */
export type AuditPage = Static<typeof AuditPage>;

/** Body of `POST /admin/users`: a new backoffice user (the password is generated when absent). */
export const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Union(USER_ROLES.map((r) => Type.Literal(r))),
    white_label_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    password: Type.Optional(Type.String({ minLength: 12, maxLength: 1024 })),
  },
  {
    additionalProperties: false,
    examples: [{ email: 'finance@partner.example', role: 'partner_viewer', white_label_id: 'wl_3f2a' }],
  },
);
/** Body of `POST /admin/users`. */
export type CreateUserBody = Static<typeof CreateUserBody>;

/** Body of `POST /admin/users/reset-password`: whose password, and the new one (generated when none is given). */
export const ResetPasswordBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.Optional(Type.String({ minLength: 12, maxLength: 1024 })),
  },
  { additionalProperties: false, examples: [{ email: 'finance@partner.example' }] },
);
/** Body of `POST /admin/users/reset-password`. */
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

/** The user of the examples of the answers that carry one. */
const EXAMPLE_USER = {
  id: 'usr_9c1e',
  email: 'finance@partner.example',
  role: 'partner_viewer',
  white_label_id: 'wl_3f2a',
};

/**
 * Answer of `POST /admin/users/reset-password` and of `bookie user reset-password`: the user, how many of its
 * sessions ended, and the generated password (shown once) when none was given.
 */
export const ResetPasswordResult = Type.Object(
  { user: UserView, sessions_ended: Type.Integer({ minimum: 0 }), password: Type.Optional(Type.String()) },
  {
    examples: [
      {
        user: EXAMPLE_USER,
        sessions_ended: 1,
        password: 'Jx2k9mQv0aLr4sTe',
      },
    ],
  },
);
/** Answer of `POST /admin/users/reset-password`. */
export type ResetPasswordResult = Static<typeof ResetPasswordResult>;

/** Answer of `POST /admin/users`: the user, and the generated password (shown once) when none was given. */
export const CreatedUser = Type.Object(
  { user: UserView, password: Type.Optional(Type.String()) },
  {
    examples: [
      {
        user: EXAMPLE_USER,
        password: 'Jx2k9mQv0aLr4sTe',
      },
    ],
  },
);
/** Answer of `POST /admin/users`. */
export type CreatedUser = Static<typeof CreatedUser>;

/**
 * Query of `GET /admin/audit` (the audit log, newest first): `before` the previous page's `next` (a decimal integer
 * string), `limit` 1..500 as a string (default 100), `subject` a prefix of the subjects, `actor` one actor.
 */
export const AuditQuery = Type.Object(
  {
    before: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,19}$', description: '`next` of the previous page' }),
    ),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1..500, default 100' })),
    subject: Type.Optional(Type.String({ maxLength: 200, description: 'subjects starting with this' })),
    actor: Type.Optional(Type.String({ maxLength: 300 })),
  },
  { additionalProperties: false },
);
/** See {@link AuditQuery}. */
export type AuditQuery = Static<typeof AuditQuery>;

/** An answer without a body (204 No Content), e.g. of `POST /auth/logout`. */
export const NoContent = Type.Null();
/** See {@link NoContent}. */
export type NoContent = Static<typeof NoContent>;
