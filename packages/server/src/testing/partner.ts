import type { CreatedWhiteLabel, CreateSessionBody, CreateWhiteLabelBody } from '@bookie/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';
import { createWhiteLabel } from '../modules/tenants/create-white-label.js';
import { type Clock, systemClock } from '../platform/clock.js';

/**
 * Test helpers for anything behind `app.requirePartner` / `app.requirePlayer`.
 *
 * In-process (database + `app.inject`):
 * ```ts
 * const p = await createPartner({ database });            // allowlist 127.0.0.1 and ::1, currency EUR
 * const token = await partnerToken(app, p.clientId, p.clientSecret);
 * const session = await createSession(app, token, { player_id: 'p1' });
 * await app.inject({ method: 'GET', url: '/x', headers: { authorization: `Bearer ${token}` } });
 * ```
 * Against a real process (`startBookie(args, { env: { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN } })`):
 * ```ts
 * const p = await createPartner({ baseUrl: proc.url, adminToken: TEST_ADMIN_TOKEN });
 * const token = await partnerToken(proc.url, p.clientId, p.clientSecret);
 * ```
 */

/** An operator token to start test processes with (`BOOKIE_ADMIN_TOKEN`). */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/** A white label made for a test, with its first credential. */
export interface TestPartner {
  whiteLabelId: string;
  clientId: string;
  clientSecret: string;
  /** The callback signing secret (`whsec_…`, D11). */
  signingSecret: string;
  /** Everything the create call returned. */
  created: CreatedWhiteLabel;
}

/** Where to create a partner: a database (in-process) or a running server's admin API. */
export type PartnerTarget = { database: Database } | { baseUrl: string; adminToken?: string };

/**
 * The test defaults: currency EUR, allowlist 127.0.0.1 and ::1, signing on, cash-out callbacks announced (the
 * reference wallet implements them; `optional_callbacks` in `opts` replaces the announcement).
 */
export function partnerDefaults(opts: Partial<CreateWhiteLabelBody> = {}): CreateWhiteLabelBody {
  return {
    name: 'Test partner',
    currencies: ['EUR'],
    allowlist: ['127.0.0.1', '::1'],
    optional_callbacks: { cash_out: true },
    ...opts,
  };
}

/** Creates a white label with one credential (see {@link partnerDefaults}); `opts` override any field. */
export async function createPartner(
  target: PartnerTarget,
  opts: Partial<CreateWhiteLabelBody> = {},
): Promise<TestPartner> {
  const input = partnerDefaults(opts);
  let created: CreatedWhiteLabel;
  if ('database' in target) {
    created = await createWhiteLabel({ database: target.database, clock: systemClock }, input, 'test');
  } else {
    const res = await fetch(`${target.baseUrl}/admin/white-labels`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${target.adminToken ?? TEST_ADMIN_TOKEN}`,
      },
      body: JSON.stringify(input),
    });
    if (res.status !== 201) throw new Error(`createPartner: ${res.status} ${await res.text()}`);
    created = (await res.json()) as CreatedWhiteLabel;
  }
  return {
    whiteLabelId: created.id,
    clientId: created.client_id,
    clientSecret: created.client_secret,
    signingSecret: created.white_label.signing.secret ?? '',
    created,
  };
}

type Target = string | FastifyInstance;

async function post(
  target: Target,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; json: unknown; text: string }> {
  if (typeof target === 'string') {
    const res = await fetch(`${target}${path}`, { method: 'POST', headers, body });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  }
  const res = await target.inject({ method: 'POST', url: path, headers, payload: body });
  return { status: res.statusCode, text: res.body, json: res.body ? JSON.parse(res.body) : undefined };
}

/** Exchanges client credentials for an access token at `POST /oauth/token` (HTTP Basic). */
export async function partnerToken(target: Target, clientId: string, clientSecret: string): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
    'base64',
  );
  const r = await post(
    target,
    '/oauth/token',
    { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    'grant_type=client_credentials',
  );
  if (r.status !== 200) throw new Error(`partnerToken: ${r.status} ${r.text}`);
  return (r.json as { access_token: string }).access_token;
}

/**
 * The body of a test session: locale en, currency EUR, player p1 unless given; `params`, unless given, carry the
 * session's currency (as a partner's site puts it there) so the reference wallet can book the bets in it.
 */
export function sessionBody(body: Partial<CreateSessionBody> = {}): CreateSessionBody {
  const currency = body.currency ?? 'EUR';
  return { locale: 'en', currency, player_id: 'p1', ...body, params: body.params ?? { currency } };
}

/** Creates a player session token at `POST /token/create` (D26) with the body of {@link sessionBody}. */
export async function createSession(
  target: Target,
  accessToken: string,
  body: Partial<CreateSessionBody> = {},
): Promise<string> {
  const r = await post(
    target,
    '/token/create',
    { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    JSON.stringify(sessionBody(body)),
  );
  if (r.status !== 200) throw new Error(`createSession: ${r.status} ${r.text}`);
  return (r.json as { token: string }).token;
}

/** A partner, its access token and the Authorization header, in one call. */
export async function partnerWithToken(
  target: PartnerTarget,
  http: Target,
  opts: Partial<CreateWhiteLabelBody> = {},
): Promise<TestPartner & { token: string; headers: { authorization: string } }> {
  const p = await createPartner(target, opts);
  const token = await partnerToken(http, p.clientId, p.clientSecret);
  return { ...p, token, headers: { authorization: `Bearer ${token}` } };
}

/** A clock a test moves by hand (`clock.advance(ms)`). */
export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

/** A {@link ManualClock} starting at `start` (default: now). */
export function manualClock(start = Date.now()): ManualClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
