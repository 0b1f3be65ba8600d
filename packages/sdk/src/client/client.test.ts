import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BookieClient, type BookieClientOptions, ROUTES } from './client.js';
import { BookieApiError } from './errors.js';
import { repeatRule } from './repeat-policy.js';

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;
interface Fake {
  url: string;
  log: { method: string; path: string; auth: string; body: string }[];
  tokensIssued: number;
  routes: Map<string, Route>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...headers,
  });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** A small stand-in for Bookie: /oauth/token (Basic auth) issues tok-N; other routes are per test. */
async function fake(expiresIn = 900): Promise<Fake> {
  const f: Fake = { url: '', log: [], tokensIssued: 0, routes: new Map() };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      f.log.push({ method: req.method ?? '', path, auth: req.headers.authorization ?? '', body });
      if (path === '/oauth/token') {
        const expected = `Basic ${Buffer.from('wl-1:s%3Acret').toString('base64')}`;
        if (req.headers.authorization !== expected || body !== 'grant_type=client_credentials') {
          return send(res, 401, { error: 'invalid_client', error_description: 'bad client' });
        }
        f.tokensIssued++;
        return send(res, 200, {
          access_token: `tok-${f.tokensIssued}`,
          token_type: 'Bearer',
          expires_in: expiresIn,
        });
      }
      const route = f.routes.get(`${req.method} ${path}`);
      if (!route) return send(res, 404, { error: { code: 'not_found', message: 'no route', details: {} } });
      route(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  f.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return f;
}

/** Retries after the first attempt, in these tests (waits of 5 ms doubling up to 20 ms). */
const RETRIES = 3;

function client(f: Fake, extra: Partial<BookieClientOptions> = {}) {
  const c = new BookieClient({
    baseUrl: `${f.url}/`,
    clientId: 'wl-1',
    clientSecret: 's:cret',
    retry: { maxRetries: RETRIES, minTimeout: 5, maxTimeout: 20 },
    ...extra,
  });
  return { c };
}

const session = { locale: 'en', currency: 'EUR', player_id: 'p1', params: { session: 's1' } };

describe('BookieClient', () => {
  it('fetches a token with HTTP Basic once, caches it, and calls typed routes with Bearer', async () => {
    const f = await fake();
    f.routes.set('POST /token/create', (req, body, res) =>
      send(res, 200, { token: `session-for-${JSON.parse(body).player_id}-${req.headers.authorization}` }),
    );
    f.routes.set('POST /token/expire', (_req, _body, res) => send(res, 204));
    const { c } = client(f);
    expect(await c.createPlayerToken(session)).toEqual({ token: 'session-for-p1-Bearer tok-1' });
    await c.expirePlayerToken('abc');
    expect(f.tokensIssued).toBe(1);
    expect(f.log.map((l) => `${l.method} ${l.path}`)).toEqual([
      'POST /oauth/token',
      'POST /token/create',
      'POST /token/expire',
    ]);
    expect(JSON.parse(f.log[2]!.body)).toEqual({ token: 'abc' });
  });

  it('shares one token fetch among concurrent calls and refreshes before expiry', async () => {
    const f = await fake(120);
    f.routes.set('GET /white-label', (req, _b, res) => send(res, 200, { auth: req.headers.authorization }));
    let now = 1_000_000;
    const { c } = client(f, { now: () => now, refreshMarginSeconds: 30 });
    const all = await Promise.all(Array.from({ length: 5 }, () => c.getWhiteLabel()));
    expect(all.every((a) => a.auth === 'Bearer tok-1')).toBe(true);
    expect(f.tokensIssued).toBe(1);
    now += 89_000; // 120 s lifetime, 30 s margin: still fresh at 89 s
    expect((await c.getWhiteLabel()).auth).toBe('Bearer tok-1');
    now += 2_000; // 91 s: refreshed
    expect((await c.getWhiteLabel()).auth).toBe('Bearer tok-2');
    expect(f.tokensIssued).toBe(2);
  });

  it('drops the token and retries once on 401', async () => {
    const f = await fake();
    let rejectFirst = true;
    f.routes.set('GET /white-label', (req, _b, res) => {
      if (rejectFirst) {
        rejectFirst = false;
        return send(res, 401, { error: { code: 'unauthorized', message: 'token revoked', details: {} } });
      }
      send(res, 200, { auth: req.headers.authorization });
    });
    const { c } = client(f);
    expect((await c.getWhiteLabel()).auth).toBe('Bearer tok-2');
    f.routes.set('GET /white-label', (_r, _b, res) => send(res, 401, { error: { code: 'unauthorized' } }));
    await expect(c.getWhiteLabel()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('retries a 429 (its Retry-After honoured, up to the longest wait), on every route', async () => {
    const f = await fake();
    let n = 0;
    f.routes.set('POST /token/create', (_r, _b, res) =>
      ++n === 1
        ? send(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '2' })
        : send(res, 200, { token: 't' }),
    );
    const { c } = client(f);
    expect(await c.createPlayerToken(session)).toEqual({ token: 't' });
    expect(n).toBe(2);
    // a route not safe to repeat: a 429 was not processed, so it is retried too
    let cancels = 0;
    f.routes.set('POST /bets/b1/cancel', (_r, _b, res) =>
      ++cancels === 1
        ? send(res, 429, { error: { code: 'rate_limited' } })
        : send(res, 200, { transition: 'settled', callbacks: 1, bet: { id: 'b1' } }),
    );
    expect((await c.cancelBet('b1', 'moved')).transition).toBe('settled');
    expect(cancels).toBe(2);
  });

  it('retries a 5xx on a route safe to repeat, then answers the last error; never on one that is not', async () => {
    const f = await fake();
    let n = 0;
    f.routes.set('GET /white-label', (_r, _b, res) =>
      ++n <= 2 ? send(res, 503) : send(res, 200, { id: 'wl' }),
    );
    const { c } = client(f);
    expect(await c.getWhiteLabel()).toEqual({ id: 'wl' });
    expect(n).toBe(3);
    let failures = 0;
    f.routes.set('GET /white-label', (_r, _b, res) => {
      failures++;
      send(res, 500, { error: { code: 'internal_error', message: 'internal error', details: {} } });
    });
    const err = await c.getWhiteLabel().catch((e) => e);
    expect(err).toBeInstanceOf(BookieApiError);
    expect(err).toMatchObject({ status: 500, code: 'internal_error' });
    expect(failures).toBe(RETRIES + 1);
    // a POST that is not safe to repeat: one attempt, its answer to the caller
    let sessions = 0;
    f.routes.set('POST /token/create', (_r, _b, res) => {
      sessions++;
      send(res, 503, { error: { code: 'unavailable', message: 'busy', details: {} } });
    });
    await expect(c.createPlayerToken(session)).rejects.toMatchObject({ status: 503 });
    expect(sessions).toBe(1);
    let voids = 0;
    f.routes.set('POST /bets/b1/void', (_r, _b, res) => {
      voids++;
      send(res, 502, { error: { code: 'bad_gateway', message: 'upstream', details: {} } });
    });
    await expect(c.voidBet('b1', 'x')).rejects.toMatchObject({ status: 502 });
    expect(voids).toBe(1);
  });

  it("works in a process whose global dispatcher is Node's own (its fetch ran first)", async () => {
    const f = await fake();
    f.routes.set('GET /white-label', (_r, _b, res) => send(res, 200, { id: 'wl' }));
    // a process of its own: Node's fetch, used first, installs its bundled undici's Agent as the global dispatcher
    const script = [
      "await fetch(process.argv[1] + '/white-label').then((r) => r.text());",
      "const { BookieClient } = await import('@bookie/sdk');",
      "const c = new BookieClient({ baseUrl: process.argv[1], clientId: 'wl-1', clientSecret: 's:cret' });",
      'process.stdout.write(JSON.stringify(await c.getWhiteLabel()));',
    ].join('\n');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--conditions=bookie-source', '--import', 'tsx', '--input-type=module', '-e', script, f.url],
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(out)).toEqual({ id: 'wl' });
  });

  it('retries a dropped connection of a creation under the idempotence_id it generated; never of another POST', async () => {
    const f = await fake();
    const bodies: Record<string, unknown>[] = [];
    f.routes.set('POST /freebet/create', (req, body, res) => {
      bodies.push(JSON.parse(body));
      if (bodies.length === 1) return req.socket.destroy();
      send(res, 201, { id: 'fb-1', idempotence_id: JSON.parse(body).idempotence_id });
    });
    const { c } = client(f);
    const freebet = { player_id: 'p1', currency_code: 'EUR', amount: '5', conditions: [] };
    const created = await c.createFreebet(freebet);
    expect(bodies).toHaveLength(2);
    const id = bodies[0]!.idempotence_id as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bodies[1]).toEqual({ ...freebet, idempotence_id: id });
    expect(created).toMatchObject({ id: 'fb-1', idempotence_id: id });
    // the caller's own id is kept; each call without one gets a new one
    await c.createFreebet({ ...freebet, idempotence_id: 'mine' });
    await c.createFreebet(freebet);
    const [mine, fresh] = bodies.slice(2).map((b) => b.idempotence_id);
    expect(mine).toBe('mine');
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh).not.toBe(id);
    // bulk: every item without an id gets its own
    let bulk: { items: Record<string, unknown>[] } | undefined;
    f.routes.set('POST /freebet/create/bulk', (_r, body, res) => {
      bulk = JSON.parse(body);
      send(res, 200, { items: [] });
    });
    await c.createFreebets({ items: [freebet, { ...freebet, idempotence_id: 'k2' }] });
    expect(bulk!.items[0]!.idempotence_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(bulk!.items[1]!.idempotence_id).toBe('k2');

    let sessions = 0;
    f.routes.set('POST /token/create', (req) => {
      sessions++;
      req.socket.destroy();
    });
    await expect(c.createPlayerToken(session)).rejects.toMatchObject({ code: 'network_error' });
    expect(sessions).toBe(1);
  });

  it('retries a 5xx or a lost connection exactly on the routes repeat-policy.ts calls safe', () => {
    for (const [name, route] of Object.entries(ROUTES)) {
      expect(route.retryable, name).toBe(repeatRule(route.method, route.path) !== 'never');
      const takesId = 'idempotenceId' in route;
      expect(takesId, name).toBe(repeatRule(route.method, route.path).startsWith('idempotence_id'));
    }
  });

  it('does not retry a 4xx and maps Bookie and OAuth error bodies', async () => {
    const f = await fake();
    let n = 0;
    f.routes.set('POST /token/create', (_r, _b, res) => {
      n++;
      send(res, 400, {
        error: {
          code: 'validation_error',
          message: 'body.currency: bad',
          details: { field: 'body.currency' },
        },
      });
    });
    const { c } = client(f);
    await expect(c.createPlayerToken(session)).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
      details: { field: 'body.currency' },
    });
    expect(n).toBe(1);
    const { c: wrong } = client(f, { clientSecret: 'nope' });
    await expect(wrong.getWhiteLabel()).rejects.toMatchObject({
      status: 401,
      code: 'invalid_client',
      message: 'bad client',
    });
  });
});

describe('partner REST operations of bets, reports and dictionaries', () => {
  it('sends filters as query parameters, bet ids as path segments, reasons as bodies; CSV as text', async () => {
    const f = await fake();
    f.routes.set('GET /bets?player_id=p+1&status=1&limit=2', (_q, _b, res) =>
      send(res, 200, { items: [], next: null }),
    );
    f.routes.set('GET /bets/b%2F1', (_q, _b, res) => send(res, 200, { id: 'b/1' }));
    f.routes.set('POST /bets/b1/cancel', (_q, body, res) =>
      send(res, 200, {
        transition: 'settled',
        callbacks: 1,
        bet: { id: 'b1', reason: JSON.parse(body).reason },
      }),
    );
    f.routes.set('POST /bets/b1/void', (_q, _b, res) =>
      send(res, 409, { error: { code: 'conflict', message: 'bet b1 is already settled', details: {} } }),
    );
    f.routes.set('GET /dictionaries/bet-statuses?locale=de', (_q, _b, res) =>
      send(res, 200, { dictionary: 'bet-statuses', locale: 'de', items: [] }),
    );
    f.routes.set('GET /reports/daily?from=a&to=b&format=csv', (_q, _b, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('day,currency\r\n');
    });
    const { c } = client(f);
    expect(await c.listBets({ player_id: 'p 1', status: '1', limit: '2' })).toEqual({
      items: [],
      next: null,
    });
    expect(await c.getBet('b/1')).toEqual({ id: 'b/1' });
    expect((await c.cancelBet('b1', 'moved')).bet).toEqual({ id: 'b1', reason: 'moved' });
    await expect(c.voidBet('b1', 'x')).rejects.toMatchObject({ status: 409, code: 'conflict' });
    expect((await c.getDictionary('bet-statuses', 'de')).locale).toBe('de');
    expect(await c.getReportCsv('daily', { from: 'a', to: 'b' })).toBe('day,currency\r\n');
  });
});
