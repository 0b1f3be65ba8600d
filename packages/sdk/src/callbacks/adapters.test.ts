import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../signing.js';
import { notEnoughBalance } from './errors.js';
import { type ExpressLikeRequest, expressCallbackMiddleware } from './express-adapter.js';
import { fastifyCallbackPlugin } from './fastify-adapter.js';
import { placeBody, prepareCallback } from './fixtures.js';
import { type CallbackHandler, createCallbackHandler } from './handler.js';
import { nodeCallbackListener, readBody } from './node-adapter.js';

const secret = generateSigningSecret();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function makeHandler(basePath = ''): { handler: CallbackHandler; calls: string[] } {
  const calls: string[] = [];
  const handler = createCallbackHandler({
    secret,
    basePath,
    handlers: {
      place: (b, ctx) => {
        calls.push(`${b.bet_id}:${JSON.stringify(ctx.foreignParams)}`);
        if (b.bet_stake === '99.000000') return notEnoughBalance('3.000000');
      },
    },
  });
  return { handler, calls };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The same conversation over each adapter: success, replay, refusal, bad signature, heartbeat, unknown path. */
async function conversation(base: string, prefix: string, calls: string[]): Promise<void> {
  const post = async (p: { path: string; body: string; headers: Record<string, string> }) => {
    const res = await request(`${base}${prefix}${p.path}`, {
      method: 'POST',
      headers: p.headers,
      body: p.body,
    });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };
  const body = placeBody({ bet_id: 'b-ok' });
  const ok = await post(prepareCallback('place', body, { secret, foreignParams: { session: 's1' } }));
  expect(ok).toMatchObject({ status: 204, body: '' });
  const replay = await post(prepareCallback('place', body, { secret, foreignParams: { session: 's1' } }));
  expect(replay.status).toBe(204);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  const short = placeBody({ bet_id: 'b-short', bet_stake: '99.000000' });
  const refused = await post(prepareCallback('place', short, { secret }));
  expect(refused.status).toBe(400);
  expect(refused.headers['content-type']).toBe('application/json');
  expect(refused.body).toBe('{"error":{"code":"not_enough_balance","data":{"actual_balance":"3.000000"}}}');
  expect((await post(prepareCallback('place', short, { secret }))).body).toBe(refused.body);
  const forged = prepareCallback('place', placeBody({ bet_id: 'b-forged' }), {
    secret: generateSigningSecret(),
  });
  expect((await post(forged)).status).toBe(401);
  const conflict = await post(prepareCallback('place', { ...body, bet_stake: '1.000000' }, { secret }));
  expect(conflict.status).toBe(409);
  expect((await post(prepareCallback('heartbeat', null, { secret }))).status).toBe(204);
  expect(calls).toEqual(['b-ok:{"session":"s1"}', 'b-short:{}']);
}

describe('adapters over real HTTP', () => {
  it('node:http listener', async () => {
    const { handler, calls } = makeHandler();
    const base = await listen(createServer(nodeCallbackListener(handler)));
    await conversation(base, '', calls);
    const big = await request(`${base}/bet/place`, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.statusCode).toBe(413);
    await big.body.dump();
    const unknown = await request(`${base}/other`, { method: 'POST', body: '{}' });
    expect(unknown.statusCode).toBe(404);
    await unknown.body.dump();
  });

  it('Fastify plugin, next to routes that keep their JSON parser', async () => {
    const { handler, calls } = makeHandler('/callbacks');
    const app = Fastify();
    await app.register(fastifyCallbackPlugin(handler));
    app.post('/echo', async (req) => ({ got: req.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await conversation(base, '/callbacks', calls);
    const echo = await request(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.body.json()).toEqual({ got: { a: 1 } });
    // the callback routes keep the exact bytes whatever the content type says
    for (const [i, type] of ['application/json; charset=utf-8', 'text/plain', 'APPLICATION/JSON'].entries()) {
      const p = prepareCallback('place', placeBody({ bet_id: `b-type-${i}` }), { secret });
      const res = await request(`${base}/callbacks${p.path}`, {
        method: 'POST',
        headers: { ...p.headers, 'content-type': type },
        body: p.body,
      });
      expect(res.statusCode, type).toBe(204);
      await res.body.dump();
    }
    expect(calls.slice(-3)).toEqual(['b-type-0:{}', 'b-type-1:{}', 'b-type-2:{}']);
  });

  // Express is not a dependency: a tiny node:http app mimics express' middleware chain and body parsers
  // (express.json with verify → req.body parsed + req.rawBody; express.raw → req.body Buffer; none → stream).
  it.each(['json-with-rawBody', 'raw', 'no-parser'] as const)('Express middleware (%s)', async (mode) => {
    const { handler, calls } = makeHandler();
    const middleware = expressCallbackMiddleware(handler);
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const ereq = req as ExpressLikeRequest;
      void (async () => {
        if (mode !== 'no-parser') {
          const buf = (await readBody(req, 1 << 20))!;
          ereq._body = true;
          if (mode === 'raw') ereq.body = buf;
          else {
            ereq.rawBody = buf;
            ereq.body = buf.length ? JSON.parse(buf.toString()) : {};
          }
        }
        middleware(ereq, res, (err) => {
          res.statusCode = err ? 500 : 418; // 418: reached the next middleware
          res.end();
        });
      })();
    });
    const base = await listen(server);
    await conversation(base, '', calls);
    const other = await request(`${base}/not-a-callback`, { method: 'POST', body: '{}' });
    expect(other.statusCode).toBe(418);
    await other.body.dump();
  });
});
