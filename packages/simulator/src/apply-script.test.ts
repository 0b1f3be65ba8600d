import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TradingCommandResponse } from '@bookie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyScript,
  httpTradingClient,
  type PacingClock,
  type TradingClient,
  TradingCommandError,
} from './apply-script.js';
import type { ScriptStep, TradingCommand } from './season-script.js';

const MIN = 60_000;

function step(at: number, event: string, n: number): ScriptStep {
  return {
    at,
    match: 0,
    sportEventId: event,
    step: 'kick_off',
    command: {
      kind: 'update_fixture',
      method: 'PATCH',
      path: `/trading/sport-events/${event}/fixture`,
      body: { status: 1, meta: { n } },
    },
  };
}

/** A client that records what it got, answers ascending versions, and can fail or delay on demand. */
function fakeClient(opts: { failAt?: number; delay?: (n: number) => number } = {}) {
  const sent: { n: number; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let version = 0;
  const client: TradingClient = {
    async send(command: TradingCommand): Promise<TradingCommandResponse> {
      const n = (command.body as { meta: { n: number } }).meta.n;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, opts.delay?.(n) ?? 0));
      inFlight--;
      if (n === opts.failAt)
        throw new TradingCommandError(command, 400, '{"error":{"code":"validation_error"}}');
      sent.push({ n, at: Date.now() });
      return { id: 'x', version: String(++version) };
    },
    close: async () => {},
  };
  return { client, sent, maxInFlight: () => maxInFlight };
}

/** A clock that advances only when slept on. */
function fakeClock() {
  let t = 1000;
  const sleeps: number[] = [];
  const clock: PacingClock = {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  };
  return { clock, sleeps };
}

describe('applyScript', () => {
  it('sends every command in order at max speed and reports', async () => {
    const f = fakeClient();
    const steps = [0, 1, 2, 3].map((n) => step(n * MIN, `e${n % 2}`, n));
    const seen: number[] = [];
    const report = await applyScript(steps, { client: f.client, onStep: (_s, _r, i) => void seen.push(i) });
    expect(f.sent.map((s) => s.n)).toEqual([0, 1, 2, 3]);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(report).toMatchObject({
      commands: 4,
      simulatedMs: 3 * MIN,
      byStep: { kick_off: 4 },
      lastVersion: '4',
    });
  });

  it('paces at N× real time, and compresses idle gaps with maxWaitMs', async () => {
    const steps = [step(0, 'a', 0), step(MIN, 'a', 1), step(3 * MIN, 'a', 2), step(3 * MIN, 'b', 3)];
    const c = fakeClock();
    await applyScript(steps, { client: fakeClient().client, speed: 60, clock: c.clock });
    expect(c.sleeps).toEqual([1000, 2000]);
    const d = fakeClock();
    await applyScript([...steps, step(600 * MIN, 'a', 4)], {
      client: fakeClient().client,
      speed: 60,
      maxWaitMs: 1500,
      clock: d.clock,
    });
    expect(d.sleeps).toEqual([1000, 1500, 1500]);
  });

  it('stops at the first refused command and throws it', async () => {
    const f = fakeClient({ failAt: 1 });
    const steps = [0, 1, 2].map((n) => step(n, 'a', n));
    await expect(applyScript(steps, { client: f.client })).rejects.toThrow(/PATCH .* → 400/);
    expect(f.sent.map((s) => s.n)).toEqual([0]);
  });

  it('overlaps different events with concurrency, keeping each event in order', async () => {
    // event a's commands are slow; b's are fast
    const f = fakeClient({ delay: (n) => (n % 2 === 0 ? 30 : 1) });
    const steps = [0, 1, 2, 3, 4, 5].map((n) => step(n, n % 2 === 0 ? 'a' : 'b', n));
    const report = await applyScript(steps, { client: f.client, concurrency: 4 });
    expect(report.commands).toBe(6);
    expect(f.maxInFlight()).toBeGreaterThan(1);
    expect(f.maxInFlight()).toBeLessThanOrEqual(4);
    const order = f.sent.map((s) => s.n);
    expect(order.filter((n) => n % 2 === 0)).toEqual([0, 2, 4]);
    expect(order.filter((n) => n % 2 === 1)).toEqual([1, 3, 5]);
    expect(order).not.toEqual([0, 1, 2, 3, 4, 5]); // b went ahead of a
  });

  it('honours an abort signal and a bad speed', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(
      applyScript([step(0, 'a', 0)], { client: fakeClient().client, signal: ac.signal }),
    ).rejects.toThrow('stop');
    await expect(applyScript([], { client: fakeClient().client, speed: 0 })).rejects.toThrow(RangeError);
  });
});

describe('httpTradingClient', () => {
  let server: Server;
  let base: string;
  const got: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      got.push({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      });
      if (req.url?.endsWith('/bad/fixture')) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":{"code":"validation_error"}}');
      } else if (req.method === 'GET' && req.url?.endsWith('/missing')) {
        res.writeHead(400).end('{}');
      } else if (req.method === 'GET') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"version":"7","sport_event":{"id":"e"}}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"e","version":"42"}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends method, path, bearer token and JSON body; reads answers', async () => {
    const client = httpTradingClient({ baseUrl: base, token: 'operator-token-123456' });
    const cmd = step(0, 'e', 1).command;
    expect(await client.send(cmd)).toEqual({ id: 'e', version: '42' });
    expect(got.at(-1)).toEqual({
      method: 'PATCH',
      url: '/trading/sport-events/e/fixture',
      auth: 'Bearer operator-token-123456',
      type: 'application/json',
      body: JSON.stringify(cmd.body),
    });
    expect(await client.getSportEvent('e')).toEqual({ version: '7', sport_event: { id: 'e' } });
    expect(await client.getSportEvent('missing')).toBeUndefined();
    const bad = step(0, 'bad', 1).command;
    const err = await client.send(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TradingCommandError);
    expect(err).toMatchObject({ status: 400, command: bad });
    await client.close();
  });

  it('turns a refused connection into a TradingCommandError with status 0', async () => {
    const client = httpTradingClient({ baseUrl: 'http://127.0.0.1:1', token: 't' });
    await expect(client.send(step(0, 'e', 1).command)).rejects.toMatchObject({ status: 0 });
    await client.close();
  });
});
