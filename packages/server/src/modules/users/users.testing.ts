import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Database } from '../../db/database.js';
import { injectJson } from '../../testing/inject.js';
import { createPartner } from '../../testing/partner.js';
import { createUser } from './create-user.js';
import type { UsersDeps } from './deps.js';

/** The password of every test user. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** A backoffice user to create in a test: its email, role and (for partner roles) white label. */
export interface TestUser {
  email: string;
  role: 'operator' | 'partner_admin' | 'partner_viewer';
  whiteLabelId?: string;
}

/** Creates these backoffice users with {@link TEST_PASSWORD}, one after another. */
export async function createTestUsers(deps: UsersDeps, users: TestUser[]): Promise<void> {
  for (const u of users) {
    await createUser(deps, { ...u, password: TEST_PASSWORD, actor: 'test' });
  }
}

/** Two white labels, "A" and "B", for tests of what a user of one may see and do in the other. */
export async function whiteLabelsAB(deps: { database: Database }): Promise<{ a: string; b: string }> {
  const a = (await createPartner(deps, { name: 'A' })).whiteLabelId;
  const b = (await createPartner(deps, { name: 'B' })).whiteLabelId;
  return { a, b };
}

/** A backoffice user's session as the browser holds it: the cookie to send, the CSRF token and the Set-Cookie. */
export interface TestSession {
  cookie: string;
  csrf: string;
  setCookie: string;
}

/** `POST /backoffice/api/session` with an email and a password, from an address; answers the raw response. */
export function logIn(
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
  remoteAddress = '127.0.0.1',
) {
  return app.inject({
    method: 'POST',
    url: '/backoffice/api/session',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
  });
}

/** Logs a test user in with {@link TEST_PASSWORD}; its session (throws unless the log-in succeeds). */
export async function logInSession(app: FastifyInstance, email: string): Promise<TestSession> {
  const res = await logIn(app, email);
  if (res.statusCode !== 200) throw new Error(`log-in of ${email}: ${res.statusCode} ${res.body}`);
  const setCookie = String(res.headers['set-cookie']);
  return { setCookie, cookie: setCookie.split(';')[0] as string, csrf: res.json().csrf_token };
}

/**
 * A call as a logged-in user: its cookie, its CSRF token on anything but GET, the body as JSON, and `extra` headers.
 * Answers the status, the JSON body (undefined when empty) and the headers.
 */
export async function asUser(
  app: FastifyInstance,
  s: Pick<TestSession, 'cookie' | 'csrf'>,
  method: string,
  url: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const res = await injectJson(app, method as HTTPMethods, url, body, {
    cookie: s.cookie,
    ...(method === 'GET' ? {} : { 'x-csrf-token': s.csrf }),
    ...extra,
  });
  return { status: res.statusCode, json: res.body ? res.json() : undefined, headers: res.headers };
}

/** The arguments of {@link asUser} after the app: the session, method, url, body and extra headers. */
export type UserCall = Parameters<typeof asUser> extends [FastifyInstance, ...infer R] ? R : never;
