import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app/test-app.js';
import { sampleEvent } from '../modules/trading/fixtures.js';
import { createTestDatabase } from '../testing/database.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN } from '../testing/partner.js';

/**
 * Hostile input over every operation of `/openapi.json` (docs/adr/0016-safety-and-conformance.md): the text rule
 * (no NUL, no lone surrogate in any string) answers 400 naming the field and writes nothing; authentication comes
 * before validation; generated bad bodies, headers and path parameters never get a 5xx.
 */

interface Operation {
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

const NUL = 'a\u0000b';
const LONE_HIGH = 'x\uD800';
const LONE_LOW = '\uDC00y';
/** Streams that never end on a valid request: only hostile inputs are sent to them. */
const STREAMS = new Set(['GET /log', 'GET /frame-api/stream']);

describe(`hostile input (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let partner: string;
  let player: string;
  let operations: Operation[] = [];

  beforeAll(async () => {
    t = await createTestApp(await createTestDatabase());
    const p = await createPartner({ database: t.deps.database });
    partner = await partnerToken(t.app, p.clientId, p.clientSecret);
    player = await createSession(t.app, partner, { player_id: 'p1' });
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
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  function authHeader(op: Operation): Record<string, string> {
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

  it('finds the operations of /openapi.json', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('POST /oauth/token');
  });

  it('refuses NUL and lone surrogates in every body field, query and path parameter: 400 naming it, nothing written', async () => {
    const before = await rowCounts();
    for (const op of operations) {
      const cases: Array<{ url: string; body?: string; field: string }> = [];
      for (const bad of [NUL, LONE_HIGH, LONE_LOW]) {
        for (const prop of op.properties) {
          cases.push({
            url: url(op, {}),
            body: JSON.stringify({ [prop]: bad }),
            field: `body.${prop}`,
          });
          cases.push({
            url: url(op, {}),
            body: JSON.stringify({ [prop]: [bad] }),
            field: `body.${prop}[0]`,
          });
        }
        if (op.body && op.properties.length === 0) {
          cases.push({ url: url(op, {}), body: JSON.stringify({ [bad]: 1 }), field: 'body[' });
        }
        for (const q of op.query.length > 0 ? op.query : ['anything']) {
          // a lone surrogate cannot be percent-encoded as UTF-8; NUL can
          if (bad === NUL) cases.push({ url: url(op, {}, { [q]: bad }), field: `query.${q}` });
        }
        for (const p of op.pathParams) {
          if (bad === NUL) cases.push({ url: url(op, { [p]: bad }), field: `params.${p}` });
        }
      }
      for (const c of cases) {
        const r = await send(op, c);
        const what = `${op.method} ${c.url} ${c.body ?? ''}`;
        expect(r.status, what).toBe(400);
        expect(namedField(r.json), what).toContain(c.field);
      }
    }
    expect(await rowCounts()).toEqual(before);
  }, 120_000);

  it('refuses a body nested 100,000 deep on every operation that takes one: 400 naming the body, nothing written', async () => {
    const before = await rowCounts();
    const arrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const objects = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const withBody = operations.filter((o) => o.body && o.auth !== 'basic' && !o.sessionOnly);
    expect(withBody.length).toBeGreaterThan(20);
    for (const op of withBody) {
      for (const body of [arrays, objects]) {
        const r = await send(op, { url: url(op, {}), body });
        const what = `${op.method} ${op.path}`;
        expect(r.status, what).toBe(400);
        expect(namedField(r.json), what).toBe('body');
      }
    }
    // the token endpoint (its own error body) and the backoffice login (no authentication) as well
    for (const path of ['/oauth/token', '/backoffice/api/session']) {
      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json' },
        payload: arrays,
      });
      expect(res.statusCode, path).toBe(400);
      expect(JSON.stringify(res.json()), path).toContain('body');
    }
    expect(await rowCounts()).toEqual(before);
  }, 120_000);

  it('refuses control and bidi characters and over-long names and ids in trading commands: 400 naming the field, nothing written', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const post = (url: string, body: unknown, method: 'POST' | 'PUT' | 'PATCH' = 'POST') =>
      t.app.inject({ method, url, headers: admin, payload: JSON.stringify(body) });
    const created = await post('/trading/sport-events', sampleEvent());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const before = await rowCounts();
    const long = (n: number) => 'x'.repeat(n);
    type Body = ReturnType<typeof sampleEvent>;
    const createCases: Array<[string, (b: Body) => void, string]> = [];
    for (const [ch, label] of [
      ['\u202E', 'RLO'],
      ['\u2066', 'LRI'],
      ['\u200F', 'RLM'],
      ['\u0007', 'BEL'],
      ['\n', 'newline'],
      ['\u009B', 'CSI'],
      ['\u007F', 'DEL'],
    ] as const) {
      createCases.push([
        `competitor name with ${label}`,
        (b) => {
          b.fixture.competitors.c1!.name = `Arsenal${ch}lanesra`;
        },
        'body.fixture.competitors.c1.name',
      ]);
    }
    createCases.push(
      [
        'tournament name',
        (b) => {
          b.fixture.tournament.name = `League\u202A`;
        },
        'body.fixture.tournament.name',
      ],
      [
        'fixture template',
        (b) => {
          b.fixture.template = `{$competitor1}\u2067 vs`;
        },
        'body.fixture.template',
      ],
      [
        'market template',
        (b) => {
          b.markets![0]!.template = '1x2\u200E';
        },
        'body.markets[0].template',
      ],
      [
        'odd template',
        (b) => {
          b.markets![0]!.odds[0]!.template = '\u202D1';
        },
        'body.markets[0].odds[0].template',
      ],
      [
        'long competitor name',
        (b) => {
          b.fixture.competitors.c1!.name = long(257);
        },
        'body.fixture.competitors.c1.name',
      ],
      [
        'long tournament id',
        (b) => {
          b.fixture.tournament.id = long(129);
        },
        'body.fixture.tournament.id',
      ],
      [
        'long market id',
        (b) => {
          b.markets![0]!.id = long(129);
        },
        'body.markets[0].id',
      ],
      [
        'long odd id',
        (b) => {
          b.markets![0]!.odds[0]!.id = long(129);
        },
        'body.markets[0].odds[0].id',
      ],
      [
        'long sport id',
        (b) => {
          b.fixture.sport_id = long(129);
        },
        'body.fixture.sport_id',
      ],
      [
        'long competitor key',
        (b) => {
          b.fixture.competitors[long(129)] = b.fixture.competitors.c2!;
          delete b.fixture.competitors.c2;
        },
        'body.fixture.competitors',
      ],
      [
        'bidi specifier',
        (b) => {
          b.markets![0]!.specifiers = { total: '2.5\u202E' };
        },
        'body.markets[0].specifiers.total',
      ],
    );
    for (const [what, change, field] of createCases) {
      const body = sampleEvent();
      change(body);
      const r = await post('/trading/sport-events', body);
      expect(r.statusCode, what).toBe(400);
      expect(r.json().error.details.field, what).toBe(field);
    }
    // the limits themselves are accepted
    const atLimit = sampleEvent();
    atLimit.fixture.competitors.c1!.name = `Ärsenal 😀 ${long(245)}`;
    atLimit.markets![0]!.id = long(128);
    expect((await post('/trading/sport-events', atLimit)).statusCode).toBe(201);
    const afterCreate = await rowCounts();

    const commands: Array<[string, string, unknown, string, 'POST' | 'PUT' | 'PATCH']> = [
      ['fixture', `/trading/sport-events/${id}/fixture`, { template: 'a\u202Eb' }, 'body.template', 'PATCH'],
      ['fixture', `/trading/sport-events/${id}/fixture`, { sport_id: long(129) }, 'body.sport_id', 'PATCH'],
      [
        'fixture',
        `/trading/sport-events/${id}/fixture`,
        { tournament: { id: 't1', name: 'x\u2069', master_id: 'm' } },
        'body.tournament.name',
        'PATCH',
      ],
      [
        'markets',
        `/trading/sport-events/${id}/markets`,
        { markets: [{ id: '9', type_id: 1, template: long(257), odds: [] }] },
        'body.markets[0].template',
        'PUT',
      ],
      [
        'markets',
        `/trading/sport-events/${id}/markets`,
        { markets: [{ id: '1', odds: [{ id: '1', template: '\u200Fx' }] }] },
        'body.markets[0].odds[0].template',
        'PATCH',
      ],
      [
        'scores',
        `/trading/sport-events/${id}/scores`,
        {
          competitors: {
            c1: { total: { id: 'total\u0001', type: 1, number: 0, points: '1' } },
          },
        },
        'body.competitors.c1.total.id',
        'PATCH',
      ],
      [
        'changes',
        `/trading/sport-events/${id}/changes`,
        { changes: { 'fixture/competitors/c1/name': 'Arse\u202Enal' } },
        'body.changes.fixture/competitors/c1/name',
        'POST',
      ],
      [
        'rollback',
        `/trading/sport-events/${id}/bet-rollbacks`,
        {
          market_ids: [long(129)],
          reason: 1,
          dt_start: '2030-06-01T18:00:00Z',
          dt_end: '2030-06-01T18:01:00Z',
        },
        'body.market_ids[0]',
        'POST',
      ],
    ];
    for (const [what, u, body, field, method] of commands) {
      const r = await post(u, body, method);
      expect(r.statusCode, `${what} ${r.body}`).toBe(400);
      expect(r.json().error.details.field, what).toContain(field);
    }
    expect(before).not.toEqual(afterCreate);
    expect(await rowCounts()).toEqual(afterCreate);
  });

  it('reads decimals by one rule on every route: leading zeros, exponents, signs, long scales and odds not above 1 answer 400 naming the field, nothing written', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const created = await t.app.inject({
      method: 'POST',
      url: '/trading/sport-events',
      headers: admin,
      payload: JSON.stringify(sampleEvent()),
    });
    expect(created.statusCode, created.body).toBe(201);
    const ev = created.json().id as string;
    const before = await rowCounts();
    const money = ['007.5', '01', '1e2', '-1', '+1', '1.', ' 1', '1.1234567', '0x10'];
    const odds = ['01.5', '1e1', '-2', '1', '1.0', '1.000000', '0.5', '2.1234567890123'];
    const sel = (value: string) => ({ sport_event_id: ev, market_id: '1', odd_id: '1', value });
    const reported = (stake: string, value: string, bet: string) => ({
      bet_id: bet,
      player_id: 'p1',
      type: { code: 0, system_sizes: [1] },
      stake: { value: stake, currency_code: 'EUR' },
      selections: [sel(value)],
      created_at: '2030-06-01T12:00:00Z',
    });
    const cases: Array<{
      what: string;
      method: 'POST' | 'GET' | 'PUT';
      url: string;
      auth: string;
      body?: unknown;
      field: string;
    }> = [];
    for (const m of money) {
      cases.push(
        {
          what: `placement stake ${m}`,
          method: 'POST',
          url: '/frame-api/bets',
          auth: player,
          body: {
            bet_type: 'single',
            stake: m,
            currency: 'EUR',
            odds_strategy: 3,
            selections: [{ sport_event_id: ev, market_id: '1', odd_id: '1', odds: '1.5' }],
          },
          field: 'stake',
        },
        {
          what: `MTS stake ${m}`,
          method: 'POST',
          url: '/bets',
          auth: partner,
          body: reported(m, '1.5', 'b1'),
          field: 'stake.value',
        },
        {
          what: `advisory stake ${m}`,
          method: 'POST',
          url: '/bets/advisory',
          auth: partner,
          body: reported(m, '1.5', 'a1'),
          field: 'stake.value',
        },
        {
          what: `restrictions stake ${m}`,
          method: 'GET',
          url: `/restrictions?player_id=p1&type_code=0&currency_code=EUR&stake=${encodeURIComponent(m)}&selection=${ev}/1/1/1.5`,
          auth: partner,
          field: 'stake',
        },
        {
          what: `freebet amount ${m}`,
          method: 'POST',
          url: '/freebet/create',
          auth: partner,
          body: { player_id: 'p1', currency_code: 'EUR', amount: m, conditions: [{}] },
          field: 'amount',
        },
      );
    }
    for (const o of odds) {
      cases.push(
        {
          what: `placement odds ${o}`,
          method: 'POST',
          url: '/frame-api/bets',
          auth: player,
          body: {
            bet_type: 'single',
            stake: '10',
            currency: 'EUR',
            odds_strategy: 3,
            selections: [{ sport_event_id: ev, market_id: '1', odd_id: '1', odds: o }],
          },
          field: 'selections[0].odds',
        },
        {
          what: `MTS odds ${o}`,
          method: 'POST',
          url: '/bets',
          auth: partner,
          body: reported('10', o, 'b2'),
          field: 'selections[0].value',
        },
        {
          what: `advisory odds ${o}`,
          method: 'POST',
          url: '/bets/advisory',
          auth: partner,
          body: reported('10', o, 'a2'),
          field: 'selections[0].value',
        },
        {
          what: `advisory foreign odds ${o}`,
          method: 'POST',
          url: '/bets/advisory',
          auth: partner,
          body: { ...reported('10', '1.5', 'a3'), foreign_selections: [{ id: 'f1', value: o }] },
          field: 'foreign_selections[0].value',
        },
        {
          what: `restrictions odds ${o}`,
          method: 'GET',
          url: `/restrictions?player_id=p1&type_code=0&currency_code=EUR&selection=${ev}/1/1/${encodeURIComponent(o)}`,
          auth: partner,
          field: 'query.selection[0]',
        },
        {
          what: `trading odds ${o}`,
          method: 'PUT',
          url: `/trading/sport-events/${ev}/markets`,
          auth: TEST_ADMIN_TOKEN,
          body: { markets: [{ id: '7', type_id: 1, odds: [{ id: '1', value: o }] }] },
          field: 'markets[0].odds',
        },
      );
    }
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: {
          authorization: `Bearer ${c.auth}`,
          ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(c.body !== undefined ? { payload: JSON.stringify(c.body) } : {}),
      });
      expect(res.statusCode, `${c.what}: ${res.body}`).toBe(400);
      expect(namedField(res.json()), `${c.what}: ${res.body}`).toContain(c.field);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('authenticates before it validates: no token → 401 on every authenticated operation, whatever the body', async () => {
    for (const op of operations) {
      // the token endpoint authenticates by its body; the backoffice's own session routes by their cookie
      if (op.auth === 'basic' || op.sessionOnly) continue;
      const res = await t.app.inject({
        method: op.method as 'GET',
        url: url(op, { id: NUL }, { limit: NUL }),
        headers: { 'content-type': 'application/json' },
        payload: op.body ? '{"not json' : undefined,
      });
      expect(res.statusCode, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it('answers the token endpoint without a 5xx for NUL in a form body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=a%00b&client_secret=s',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
    expect(res.json().error_description).toContain('body.client_id');
  });

  it('never answers a 5xx to generated bad bodies, headers and path parameters (fast-check)', async () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(NUL, LONE_HIGH, LONE_LOW, '', ' ', '0', '-1', '1e400', 'NaN', 'x'.repeat(5000)),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 3 }),
      fc.dictionary(text, text, { maxKeys: 3 }),
    );
    const rawBody = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom('', '{', '[]', 'null', '{"a":1,"a":2}', '{"__proto__":{}}', '"\\u0000"'),
    );
    const header = fc.record(
      {
        'x-operator': fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
        'last-version': fc.constantFrom('-1', 'abc', '99999999999999999999999', ''),
        'idempotency-key': fc.constantFrom('', 'k'.repeat(500)),
      },
      { requiredKeys: [] },
    );
    const ops = operations.filter((o) => !STREAMS.has(`${o.method} ${o.path}`));
    for (const op of ops) {
      const bodyArb =
        op.properties.length > 0
          ? fc.oneof(
              fc
                .record(Object.fromEntries(op.properties.map((p) => [p, value])), { requiredKeys: [] })
                .map((v) => JSON.stringify(v)),
              rawBody,
            )
          : rawBody;
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            body: op.body ? bodyArb.map((b) => b as string | undefined) : fc.constant(undefined),
            params: fc.dictionary(fc.constantFrom(...(op.pathParams.length ? op.pathParams : ['id'])), text, {
              maxKeys: 2,
            }),
            headers: header,
          }),
          async ({ body, params, headers }) => {
            let u: string;
            try {
              u = url(op, params);
            } catch {
              return; // a lone surrogate has no URL form
            }
            const r = await send(op, { url: u, body, headers });
            const what = `${op.method} ${u} ${body ?? ''}`;
            expect(r.status, what).toBeLessThan(500);
            if (r.status === 400) expect(namedField(r.json), what).toBeTruthy();
          },
        ),
        { numRuns: 12, seed: 15 },
      );
    }
  }, 120_000);
});
