import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createWhiteLabel } from '../tenants/create-white-label.js';
import { getWhiteLabel } from '../tenants/get-white-label.js';
import { learnOptionalCallback } from '../tenants/learn-optional-callback.js';
import { supportsCallback } from '../tenants/white-label.js';
import type { ClaimedDelivery } from './callbacks.repo.js';
import { CallbackDispatcher, type OptionalCallbackHooks } from './dispatcher.js';
import { enqueueCallbacks } from './enqueue-callbacks.js';
import { listCallbackDeliveries } from './list-deliveries.js';
import { retryCallbackDelivery } from './retry-delivery.js';
import { CallbackSender, type CallbackTargets, callbackSender } from './send-callback.js';
import { whiteLabelTargets } from './white-label-targets.js';

interface Received {
  path: string;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A partner callback server whose answers the test scripts. */
async function partner(
  answer: (
    r: Received,
    n: number,
  ) => { status: number; delayMs?: number; headers?: Record<string, string>; body?: string },
) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const r = { path: req.url ?? '', body, headers: req.headers };
      received.push(r);
      const a = answer(r, received.length);
      setTimeout(() => {
        res.writeHead(a.status, a.headers ?? {});
        res.end(a.body ?? (a.status >= 400 ? '{"error":{"code":"boom"}}' : ''));
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const logger = pino({ level: 'silent' });
const signed = (url: string) => ({
  url,
  sign: (id: string) => ({ 'webhook-id': id, 'webhook-timestamp': '1', 'webhook-signature': 'v1,test' }),
});
const unsigned = (url: string) => ({ url, sign: () => ({}) });

describe(`callback dispatcher (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  const stops: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
    await t.db.deleteFrom('callback_delivery').execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  function dispatcher(
    targets: CallbackTargets,
    opts: {
      owner?: string;
      timeoutMs?: number;
      leaseMs?: number;
      bornLeasedGraceMs?: number;
      concurrency?: number;
      sender?: CallbackSender;
      optional?: OptionalCallbackHooks;
      onSessionEnding?: (d: ClaimedDelivery) => Promise<void>;
    } = {},
  ) {
    const sender = opts.sender ?? new CallbackSender({ timeoutMs: opts.timeoutMs ?? 2000 });
    const d = new CallbackDispatcher(t, targets, sender, logger, {
      concurrency: opts.concurrency ?? 16,
      leaseMs: opts.leaseMs ?? 10_000,
      pollMs: 50,
      retryDelay: () => 30,
      ...(opts.owner ? { owner: opts.owner } : {}),
      ...(opts.bornLeasedGraceMs !== undefined ? { bornLeasedGraceMs: opts.bornLeasedGraceMs } : {}),
      ...(opts.optional ? { optional: opts.optional } : {}),
      ...(opts.onSessionEnding ? { onSessionEnding: opts.onSessionEnding } : {}),
    });
    stops.push(async () => {
      await d.stop();
      await sender.close();
    });
    return d;
  }

  // a bound for a hung test only: under a loaded machine conditions take longer, never a fixed time
  async function waitFor(cond: () => boolean | Promise<boolean>, ms = 90_000) {
    const end = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('delivers rows born leased to it once, without claiming them; another dispatcher leaves them alone', async () => {
    const p = await partner(() => ({ status: 204 }));
    stops.push(p.close);
    const targets: CallbackTargets = { get: async () => unsigned(p.url) };
    const d = dispatcher(targets, { owner: 'born-leased' });
    const other = dispatcher(targets, { owner: 'other' });
    // nothing is due before it starts: not running, it offers no lease
    expect(d.leaseForNew()).toBeUndefined();
    await d.start();
    await other.start();
    const lease = d.leaseForNew();
    expect(lease).toEqual({ owner: 'born-leased', ms: 10_000 });
    const rows = await inTransaction(t.db, (tx) =>
      enqueueCallbacks(
        tx,
        [1, 2, 3].map((n) => ({
          whiteLabelId: 'wl',
          betId: `L${n}`,
          path: '/bet/accept',
          body: { bet_id: `L${n}`, n },
          foreignParams: {},
        })),
        lease,
      ),
    );
    const leased = await t.db
      .selectFrom('callback_delivery')
      .select(['lease_owner', 'lease_until'])
      .execute();
    expect(leased.map((r) => r.lease_owner)).toEqual(['born-leased', 'born-leased', 'born-leased']);
    const claimedBefore = other.stats().claimed + d.stats().claimed;
    d.adopt(rows);
    await waitFor(async () => {
      const r = await t.db.selectFrom('callback_delivery').select('status').execute();
      return r.length === 3 && r.every((x) => x.status === 'delivered');
    });
    // each went out once, and the other dispatcher (polling meanwhile) claimed none of them
    expect(p.received.map((r) => JSON.parse(r.body).bet_id).sort()).toEqual(['L1', 'L2', 'L3']);
    expect(other.stats().claimed + d.stats().claimed - claimedBefore).toBe(3);
    expect(other.stats().delivered).toBe(0);
    const done = await t.db.selectFrom('callback_delivery').select(['attempts', 'lease_owner']).execute();
    expect(done.every((r) => r.attempts === 1 && r.lease_owner === null)).toBe(true);
  });

  it("delivers rows born leased to a process that died once their lease expired, each before its bet's later callbacks", async () => {
    const p = await partner(() => ({ status: 204 }));
    stops.push(p.close);
    const targets: CallbackTargets = { get: async () => unsigned(p.url) };
    const cb = (betId: string, path: string) => ({
      whiteLabelId: 'wl',
      betId,
      path,
      body: { bet_id: betId, path },
      foreignParams: {},
    });
    // a placement's /bet/accept rows, born leased to a dispatcher that never delivers them (its process died)
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('D1', '/bet/accept'), cb('D2', '/bet/accept')], { owner: 'dead', ms: 1 }),
    );
    // the bet settled meanwhile: its /bet/settle is queued behind its /bet/accept
    await inTransaction(t.db, (tx) => enqueueCallbacks(tx, [cb('D1', '/bet/settle')]));
    const d = dispatcher(targets, {
      owner: 'survivor',
      leaseMs: 2_000,
      timeoutMs: 1_000,
      bornLeasedGraceMs: 0,
    });
    await d.start();
    await waitFor(
      async () => (await listCallbackDeliveries(t.db, { status: 'pending', limit: 10 })).length === 0,
    );
    // each went out once, and the bet's /bet/settle only after its /bet/accept (D10)
    expect(p.received.map((r) => JSON.parse(r.body)).map((b) => `${b.bet_id} ${b.path}`)).toEqual(
      expect.arrayContaining(['D1 /bet/accept', 'D2 /bet/accept', 'D1 /bet/settle']),
    );
    expect(p.received).toHaveLength(3);
    const forD1 = p.received.map((r) => JSON.parse(r.body)).filter((b) => b.bet_id === 'D1');
    expect(forD1.map((b) => b.path)).toEqual(['/bet/accept', '/bet/settle']);
    const rows = await listCallbackDeliveries(t.db, { limit: 10 });
    expect(rows.map((r) => [r.bet_id, r.path, r.status, r.attempts])).toEqual([
      ['D1', '/bet/settle', 'delivered', 1],
      ['D2', '/bet/accept', 'delivered', 1],
      ['D1', '/bet/accept', 'delivered', 1],
    ]);
  });

  it('marks an optional callback the partner answers 404/405/501 unsupported and goes on with the bet (D45)', async () => {
    const p = await partner((r) => ({
      status: r.path.endsWith('/bet/insurances/cancel')
        ? 404
        : r.path.endsWith('/bet/cash-out-orders/accepted')
          ? 501
          : r.path.endsWith('/bet/accept')
            ? 404 // a mandatory callback is retried whatever the answer
            : 204,
    }));
    stops.push(p.close);
    const targets: CallbackTargets = { get: async () => unsigned(p.url) };
    const cb = (betId: string, path: string, n: number) => ({
      whiteLabelId: 'wl',
      betId,
      path,
      body: { bet_id: betId, n },
      foreignParams: {},
    });
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [
        cb('O', '/bet/unsettle', 1),
        cb('O', '/bet/insurances/cancel', 2),
        cb('O', '/bet/cash-out-orders/accepted', 3),
        cb('O', '/bet/settle', 4),
        cb('M', '/bet/accept', 1),
      ]),
    );
    const d = dispatcher(targets);
    await d.start();
    // the answer is recorded after it arrives (batched): wait for the record, not for the request
    await waitFor(async () =>
      (await listCallbackDeliveries(t.db, { betId: 'O', limit: 10 })).some(
        (r) => r.path === '/bet/settle' && r.status === 'delivered',
      ),
    );
    const forO = p.received.filter((r) => r.body.includes('"bet_id":"O"')).map((r) => r.path);
    expect(forO).toEqual([
      '/cb/bet/unsettle',
      '/cb/bet/insurances/cancel',
      '/cb/bet/cash-out-orders/accepted',
      '/cb/bet/settle',
    ]);
    const rows = await listCallbackDeliveries(t.db, { betId: 'O', limit: 10 });
    expect(Object.fromEntries(rows.map((r) => [r.path, [r.status, r.last_status]]))).toEqual({
      '/bet/unsettle': ['delivered', 204],
      '/bet/insurances/cancel': ['unsupported', 404],
      '/bet/cash-out-orders/accepted': ['unsupported', 501],
      '/bet/settle': ['delivered', 204],
    });
    // a mandatory callback answered 404 stays pending and is retried
    await waitFor(() => p.received.filter((r) => r.path === '/cb/bet/accept').length >= 2);
    expect((await listCallbackDeliveries(t.db, { betId: 'M', limit: 1 }))[0]).toMatchObject({
      status: 'pending',
    });
    // the operator can send an unsupported one again by hand
    const unsupported = rows.find((r) => r.path === '/bet/insurances/cancel');
    const retried = await retryCallbackDelivery(t.db, unsupported!.id);
    expect(retried.status).toBe('pending');
    await waitFor(() => p.received.filter((r) => r.path === '/cb/bet/insurances/cancel').length >= 2);
  });

  it('learns an unsupported optional callback of the white label, undoes what relied on it, and learns it back on a 2xx', async () => {
    let implemented = false;
    const p = await partner((r) => ({
      status: r.path.endsWith('/bet/insurances/accepted') && !implemented ? 404 : 204,
    }));
    stops.push(p.close);
    const clock = { now: () => Date.now() };
    const wl = await createWhiteLabel(
      { database: t, clock },
      { name: 'Mandatory only', currencies: ['EUR'], callback_url: p.url },
    );
    const undone: string[] = [];
    const d = dispatcher(whiteLabelTargets({ database: t, clock }, 0), {
      optional: {
        learn: learnOptionalCallback,
        onUnsupported: {
          '/bet/insurances/accepted': async (tx, delivery) => {
            // runs in the transaction that records the delivery: it sees the row as unsupported already
            const row = await tx
              .selectFrom('callback_delivery')
              .select('status')
              .where('id', '=', delivery.id)
              .executeTakeFirstOrThrow();
            undone.push(`${delivery.bet_id}:${row.status}`);
          },
        },
      },
    });
    await d.start();
    const cb = (betId: string, path: string) => ({
      whiteLabelId: wl.id,
      betId,
      path,
      body: { bet_id: betId },
      foreignParams: {},
    });
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [
        cb('I1', '/bet/settle'),
        cb('I1', '/bet/insurances/accepted'),
        cb('I1', '/bet/unsettle'),
      ]),
    );
    await waitFor(async () =>
      (await listCallbackDeliveries(t.db, { betId: 'I1', limit: 10 })).some(
        (r) => r.path === '/bet/unsettle' && r.status === 'delivered',
      ),
    );
    // not retried: the partner saw it once, and the bet's next callback went on
    expect(p.received.filter((r) => r.path === '/cb/bet/insurances/accepted')).toHaveLength(1);
    expect(undone).toEqual(['I1:unsupported']);
    const learnt = await getWhiteLabel({ database: t }, wl.id);
    expect(learnt.optionalCallbacks.insurance).toMatchObject({ learnt: 'unsupported', lastStatus: 404 });
    expect(supportsCallback(learnt, 'insurance')).toBe(false);
    // the others are as they were: banners relied on (not withdrawn), cash-out not (never announced)
    expect(supportsCallback(learnt, 'banners')).toBe(true);
    expect(supportsCallback(learnt, 'cash_out')).toBe(false);
    const audits = await t.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('subject', '=', `white_label:${wl.id}`)
      .where('action', '=', 'white_label.optional_callback_learnt')
      .execute();
    expect(audits.map((a) => (typeof a.details === 'string' ? JSON.parse(a.details) : a.details))).toEqual([
      { callback: 'insurance', learnt: 'unsupported', status: 404 },
    ]);

    // the partner implements it now: the next delivery is sent once, and its 2xx is learnt
    implemented = true;
    await inTransaction(t.db, (tx) => enqueueCallbacks(tx, [cb('I2', '/bet/insurances/accepted')]));
    await waitFor(async () => supportsCallback(await getWhiteLabel({ database: t }, wl.id), 'insurance'));
    expect((await getWhiteLabel({ database: t }, wl.id)).optionalCallbacks.insurance).toMatchObject({
      learnt: 'supported',
      lastStatus: 204,
    });
    expect(undone).toEqual(['I1:unsupported']);
  });

  it('tells of a callback answered auth_session_unknown or auth_credentials_expired (the session ends), and still retries it', async () => {
    const codes: Record<string, string> = {
      S1: 'auth_session_unknown',
      S2: 'auth_credentials_expired',
      S3: 'not_enough_balance',
    };
    const p = await partner((r) => {
      const bet = /"bet_id":"(S\d)"/.exec(r.body)?.[1] ?? '';
      // each bet's first attempt is refused with its code; then accepted
      const first = p.received.filter((x) => x.body.includes(`"bet_id":"${bet}"`)).length === 1;
      return first ? { status: 400, body: JSON.stringify({ error: { code: codes[bet] } }) } : { status: 204 };
    });
    stops.push(p.close);
    const ended: string[] = [];
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(
        tx,
        ['S1', 'S2', 'S3'].map((betId) => ({
          whiteLabelId: 'wl',
          betId,
          path: '/bet/settle',
          body: { bet_id: betId },
          foreignParams: {},
        })),
      ),
    );
    const d = dispatcher(
      { get: async () => unsigned(p.url) },
      {
        onSessionEnding: async (x) => {
          ended.push(x.bet_id);
        },
      },
    );
    await d.start();
    await waitFor(async () =>
      (await listCallbackDeliveries(t.db, { limit: 10 })).every((r) => r.status === 'delivered'),
    );
    expect(ended.sort()).toEqual(['S1', 'S2']);
    expect(p.received).toHaveLength(6);
  });

  it('delivers in order per bet, retries failures with the same request_id and bytes, and signs', async () => {
    let failuresLeft = 2;
    const p = await partner((r) => {
      if (r.body.includes('"n":1') && r.body.includes('"bet_id":"A"') && failuresLeft > 0) {
        failuresLeft--;
        return { status: 500 };
      }
      return { status: r.body.includes('"bet_id":"B"') ? 201 : 204 };
    });
    stops.push(p.close);
    const targets: CallbackTargets = { get: async () => signed(p.url) };
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [
        {
          whiteLabelId: 'wl',
          betId: 'A',
          path: '/bet/accept',
          body: { bet_id: 'A', n: 1 },
          foreignParams: { s: 1 },
        },
        {
          whiteLabelId: 'wl',
          betId: 'B',
          path: '/bet/accept',
          body: { bet_id: 'B', n: 1 },
          foreignParams: {},
        },
        {
          whiteLabelId: 'wl',
          betId: 'A',
          path: '/bet/settle',
          body: { bet_id: 'A', n: 2 },
          foreignParams: { s: 1 },
        },
        {
          whiteLabelId: 'wl',
          betId: 'A',
          path: '/bet/unsettle',
          body: { bet_id: 'A', n: 3 },
          foreignParams: { s: 1 },
        },
      ]),
    );
    const d = dispatcher(targets);
    await d.start();
    await waitFor(
      async () => (await listCallbackDeliveries(t.db, { status: 'pending', limit: 10 })).length === 0,
    );

    const forA = p.received.filter((r) => r.body.includes('"bet_id":"A"'));
    expect(forA.map((r) => r.path)).toEqual([
      '/cb/bet/accept',
      '/cb/bet/accept',
      '/cb/bet/accept',
      '/cb/bet/settle',
      '/cb/bet/unsettle',
    ]);
    // every retry carries the same request_id and the same bytes (D7)
    expect(new Set(forA.slice(0, 3).map((r) => r.body)).size).toBe(1);
    expect(new Set(forA.slice(0, 3).map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(JSON.parse(forA[0]!.body).request_id).toBe(forA[0]!.headers['webhook-id']);
    const h = forA[0]!.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h.accept).toBe('*/*');
    expect(h['foreign-params']).toBe('{"s":1}');
    expect(h['webhook-signature']).toBe('v1,test');
    // 201 is success (D8): B was delivered once
    expect(p.received.filter((r) => r.body.includes('"bet_id":"B"'))).toHaveLength(1);
    const rows = await listCallbackDeliveries(t.db, { limit: 10 });
    const accA = rows.find((r) => r.bet_id === 'A' && r.path === '/bet/accept')!;
    expect(accA).toMatchObject({ status: 'delivered', attempts: 3, last_status: 204, last_error: null });
  });

  it('treats a redirect and a timeout as failures and keeps retrying', async () => {
    const p = await partner((_r, n) =>
      n === 1
        ? { status: 302, headers: { location: '/elsewhere' } }
        : n === 2
          ? { status: 204, delayMs: 3_000 }
          : { status: 204 },
    );
    stops.push(p.close);
    // a timeout well above what a prompt local answer takes under load, so only the slow answer times out
    const d = dispatcher({ get: async () => unsigned(p.url) }, { timeoutMs: 1_500 });
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [
        { whiteLabelId: 'wl', betId: 'R', path: '/bet/decline', body: { bet_id: 'R' }, foreignParams: {} },
      ]),
    );
    await d.start();
    await waitFor(
      async () => (await listCallbackDeliveries(t.db, { status: 'delivered', limit: 10 })).length === 1,
    );
    expect(p.received.length).toBeGreaterThanOrEqual(3);
    expect(p.received[0]!.headers['webhook-signature']).toBeUndefined();
    const [row] = await listCallbackDeliveries(t.db, { limit: 1 });
    expect(row!.attempts).toBe(p.received.length);
  });

  it('shares work between two dispatchers without sending anything twice', async () => {
    const p = await partner(() => ({ status: 204, delayMs: 2 }));
    stops.push(p.close);
    const targets: CallbackTargets = { get: async () => unsigned(p.url) };
    const n = 150;
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(
        tx,
        Array.from({ length: n }, (_, i) => ({
          whiteLabelId: 'wl',
          betId: `bet-${i % 50}`,
          path: '/bet/settle',
          body: { bet_id: `bet-${i % 50}`, i },
          foreignParams: {},
        })),
      ),
    );
    // a generous timeout: under a loaded machine a slow answer would be a legitimate at-least-once retry; the claim's
    // lease outlasts it, as in production, so the other dispatcher never takes over an attempt still in flight
    const a = dispatcher(targets, { owner: 'a', timeoutMs: 30_000, leaseMs: 60_000 });
    const b = dispatcher(targets, { owner: 'b', timeoutMs: 30_000, leaseMs: 60_000 });
    await Promise.all([a.start(), b.start()]);
    await waitFor(
      async () => (await listCallbackDeliveries(t.db, { status: 'delivered', limit: 1000 })).length === n,
    );
    const ids = p.received.map((r) => JSON.parse(r.body).request_id as string);
    expect(new Set(ids).size).toBe(n);
    // every request the partner saw is an attempt the outbox recorded: nothing was sent twice by two owners
    const rows = await t.db.selectFrom('callback_delivery').select(['request_id', 'attempts']).execute();
    const sent = new Map<string, number>();
    for (const id of ids) sent.set(id, (sent.get(id) ?? 0) + 1);
    for (const r of rows) expect(sent.get(r.request_id)).toBe(r.attempts);
    // per bet, the order of arrival is the order of enqueueing
    for (let bet = 0; bet < 50; bet++) {
      const seen = p.received
        .map((r) => JSON.parse(r.body))
        .filter((b) => b.bet_id === `bet-${bet}`)
        .map((b) => b.i);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
    }
  });

  /** A partner that holds every request until `release()` (or until `open` requests are held at once). */
  async function holdingPartner(releaseAt = Number.POSITIVE_INFINITY) {
    const held: Array<() => void> = [];
    const seen = { requests: 0, open: 0, maxOpen: 0 };
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.requests++;
        seen.open++;
        seen.maxOpen = Math.max(seen.maxOpen, seen.open);
        held.push(() => {
          seen.open--;
          res.writeHead(204);
          res.end();
        });
        if (seen.open >= releaseAt) release();
      });
    });
    const release = () => {
      for (const answer of held.splice(0)) answer();
    };
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
    const close = async () => {
      release();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    };
    return { url, seen, release, close };
  }

  async function enqueueSettles(n: number) {
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(
        tx,
        Array.from({ length: n }, (_, i) => ({
          whiteLabelId: 'wl',
          betId: `w-${i}`,
          path: '/bet/settle',
          body: { bet_id: `w-${i}` },
          foreignParams: {},
        })),
      ),
    );
  }

  const pendingCount = async () =>
    (await listCallbackDeliveries(t.db, { status: 'pending', limit: 1000 })).length;

  it('puts all its deliveries in flight on the wire at once, more than the HTTP client default', async () => {
    // the partner answers only once 80 requests are open together: with fewer connections than deliveries in
    // flight, the HTTP client would queue the rest behind them and this would never happen
    const p = await holdingPartner(80);
    stops.push(p.close);
    await enqueueSettles(80);
    const d = dispatcher(
      { get: async () => unsigned(p.url) },
      {
        concurrency: 80,
        leaseMs: 120_000,
        sender: callbackSender({ timeoutMs: 60_000, concurrency: 80 }),
      },
    );
    await d.start();
    await waitFor(async () => (await pendingCount()) === 0);
    expect(p.seen.maxOpen).toBe(80);
    expect(p.seen.requests).toBe(80);
  });

  it('claims the next deliveries while its window is full, and sends them as slots free', async () => {
    const p = await holdingPartner();
    stops.push(p.close);
    await enqueueSettles(6);
    const d = dispatcher(
      { get: async () => unsigned(p.url) },
      { owner: 'window', concurrency: 2, leaseMs: 120_000, timeoutMs: 60_000 },
    );
    await d.start();
    // two in flight at the partner, two more leased and ready (the prefetch defaults to the concurrency)
    const leased = async () =>
      (
        await t.db
          .selectFrom('callback_delivery')
          .select('id')
          .where('status', '=', 'pending')
          .where('lease_owner', '=', 'window')
          .execute()
      ).length;
    await waitFor(async () => p.seen.open === 2 && (await leased()) === 4);
    expect(p.seen.requests).toBe(2);
    // answered, the window refills from what it holds, never above its concurrency
    while ((await pendingCount()) > 0) {
      p.release();
      await new Promise((r) => setTimeout(r, 20));
      expect(p.seen.open).toBeLessThanOrEqual(2);
    }
    expect(p.seen.requests).toBe(6);
    expect(d.stats()).toMatchObject({ delivered: 6, expired: 0 });
  });

  it('lets an operator retry a pending delivery now, and refuses a delivered one', async () => {
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [
        { whiteLabelId: 'wl', betId: 'Z', path: '/bet/settle', body: { bet_id: 'Z' }, foreignParams: {} },
      ]),
    );
    await t.db
      .updateTable('callback_delivery')
      .set({ next_attempt_at: new Date(Date.now() + 3_600_000) })
      .execute();
    const [row] = await listCallbackDeliveries(t.db, { limit: 1 });
    const p = await partner(() => ({ status: 204 }));
    stops.push(p.close);
    const d = dispatcher({ get: async () => unsigned(p.url) });
    await d.start();
    await new Promise((r) => setTimeout(r, 150));
    expect(p.received).toHaveLength(0);
    await retryCallbackDelivery(t.db, row!.request_id);
    d.kick();
    await waitFor(() => p.received.length === 1);
    await waitFor(
      async () => (await listCallbackDeliveries(t.db, { status: 'delivered', limit: 1 })).length === 1,
    );
    await expect(retryCallbackDelivery(t.db, row!.id)).rejects.toMatchObject({ code: 'conflict' });
    await expect(retryCallbackDelivery(t.db, '999999')).rejects.toMatchObject({ code: 'not_found' });
  });
});
