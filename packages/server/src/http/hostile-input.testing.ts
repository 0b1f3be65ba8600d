import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../app/test-app.js';
import { createTestDatabase } from '../testing/database.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN } from '../testing/partner.js';

/** An operation of `/openapi.json`, as the hostile input tests send it. */
export interface Operation {
  method: string;
  path: string;
  auth: 'admin' | 'partner' | 'player' | 'basic';
  body: boolean;
  /** Authenticated only by the backoffice session cookie (its own login and logout routes). */
  sessionOnly: boolean;
  properties: string[];
  query: string[];
  pathParams: string[];
}

/** A string with a NUL in it. */
export const NUL = 'a\u0000b';
/** A lone high surrogate. */
export const LONE_HIGH = 'x\uD800';
/** A lone low surrogate. */
export const LONE_LOW = '\uDC00y';
/** Streams that never end on a valid request: only hostile inputs are sent to them. */
export const STREAMS = new Set(['GET /log', 'GET /frame-api/stream']);

/** The app under test, a partner's and a player's token, and the operations of its `/openapi.json`. */
export interface HostileWorld {
  t: TestApp;
  partner: string;
  player: string;
  operations: Operation[];
}

/** Starts the app on a fresh database, with a partner and a player, and reads the operations of `/openapi.json`. */
export async function startHostileWorld(): Promise<HostileWorld> {
  let operations: Operation[] = [];
  const t = await createTestApp(await createTestDatabase());
  const p = await createPartner({ database: t.deps.database });
  const partner = await partnerToken(t.app, p.clientId, p.clientSecret);
  const player = await createSession(t.app, partner, { player_id: 'p1' });
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const security = JSON.stringify(op.security ?? []);
      const auth = security.includes('admin')
        ? 'admin'
        : security.includes('basic')
          ? 'basic'
          : path.startsWith('/frame-api/')
            ? 'player'
            : 'partner';
      if (!op.security || op.security.length === 0) continue; // /healthz, /readyz, the backoffice login
      const schema = op.requestBody?.content?.['application/json']?.schema;
      // biome-ignore lint/suspicious/noExplicitAny: OpenAPI parameters
      const params = (op.parameters ?? []) as any[];
      operations.push({
        method: method.toUpperCase(),
        path,
        auth,
        body: Boolean(op.requestBody) || auth === 'basic',
        sessionOnly: security === '[{"session":[]}]',
        properties: Object.keys(schema?.properties ?? {}),
        query: params.filter((x) => x.in === 'query').map((x) => x.name),
        pathParams: params.filter((x) => x.in === 'path').map((x) => x.name),
      });
    }
  }
  operations = operations.sort((a, b) => `${a.path}${a.method}`.localeCompare(`${b.path}${b.method}`));
  return { t, partner, player, operations };
}

/**
 * Starts a hostile world before the suite's tests and closes it after them; `started` receives it once it runs.
 * Returns {@link hostileHelpers} bound to it.
 */
export function useHostileWorld(started: (world: HostileWorld) => void) {
  let world: HostileWorld | undefined;
  beforeAll(async () => {
    world = await startHostileWorld();
    started(world);
  }, 180_000);
  afterAll(async () => {
    await world?.t.close();
  });
  return hostileHelpers(() => {
    if (!world) throw new Error('the hostile world has not started');
    return world;
  });
}

/** Sending an operation as its caller would, and the checks of its answer and of what was written. */
export function hostileHelpers(world: () => Pick<HostileWorld, 't' | 'partner' | 'player'>) {
  function authHeader(op: Operation): Record<string, string> {
    const { partner, player } = world();
    switch (op.auth) {
      case 'admin':
        return { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
      case 'partner':
        return { authorization: `Bearer ${partner}` };
      case 'player':
        return { authorization: `Bearer ${player}` };
      case 'basic':
        return {};
    }
  }

  function url(op: Operation, params: Record<string, string>, query?: Record<string, string>): string {
    let u = op.path;
    for (const name of op.pathParams) u = u.replace(`{${name}}`, encodeURIComponent(params[name] ?? 'x'));
    if (query && Object.keys(query).length > 0) {
      u += `?${Object.entries(query)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&')}`;
    }
    return u;
  }

  async function send(
    op: Operation,
    o: { url: string; body?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; json: { error?: unknown; error_description?: string } | undefined }> {
    const { t } = world();
    const res = await t.app.inject({
      method: op.method as 'GET',
      url: o.url,
      headers: {
        ...authHeader(op),
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...o.headers,
      },
      ...(o.body !== undefined ? { payload: o.body } : {}),
    });
    let json: { error?: unknown; error_description?: string } | undefined;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json };
  }

  /** The field a 400 names: Bookie's `details.field`, or the OAuth `error_description`. */
  function namedField(json: { error?: unknown; error_description?: string } | undefined): string | undefined {
    if (!json) return undefined;
    if (typeof json.error_description === 'string') return json.error_description;
    const details = (json.error as { details?: { field?: unknown } } | undefined)?.details;
    return typeof details?.field === 'string' ? details.field : undefined;
  }

  /** Rows in every table of the server's schema (the "nothing written" check). */
  async function rowCounts(): Promise<Record<string, number>> {
    const { t } = world();
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
      t.deps.database.db,
    );
    const out: Record<string, number> = {};
    for (const { table_name } of tables.rows) {
      const r = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(table_name)}`.execute(
        t.deps.database.db,
      );
      out[table_name] = Number(r.rows[0]?.n ?? 0);
    }
    return out;
  }
  return { authHeader, url, send, namedField, rowCounts };
}
