import { describe, expect, it } from 'vitest';
import { generateSigningSecret, signCallback } from '../signing.js';
import { notEnoughBalance } from './errors.js';
import { cashOutAcceptedBody, declineBody, placeBody, prepareCallback, settleBody } from './fixtures.js';
import { type CallbackHandlerOptions, createCallbackHandler } from './handler.js';
import { MemoryIdempotencyStore } from './memory-store.js';
import type { CallbackRequest } from './types.js';

const secret = generateSigningSecret();

function request(p: { path: string; body: string; headers: Record<string, string> }): CallbackRequest {
  return { method: 'POST', path: p.path, headers: p.headers, body: Buffer.from(p.body) };
}

function make(options: Partial<CallbackHandlerOptions<undefined>> = {}) {
  const calls: { name: string; body: unknown; foreignParams: unknown }[] = [];
  const handler = createCallbackHandler({
    secret,
    handlers: {
      place: (body, ctx) => {
        calls.push({ name: 'place', body, foreignParams: ctx.foreignParams });
        if (body.bet_stake === '999.000000') return notEnoughBalance('1.000000');
      },
      decline: (body) => {
        calls.push({ name: 'decline', body, foreignParams: {} });
      },
    },
    ...options,
  });
  return { handler, calls };
}

describe('createCallbackHandler', () => {
  it('calls the typed handler with the body and Foreign-Params, answers 204 empty', async () => {
    const { handler, calls } = make();
    const body = placeBody();
    const res = await handler.handle(
      request(prepareCallback('place', body, { secret, foreignParams: { s: 1 } })),
    );
    expect(res).toEqual({ status: 204, headers: {}, body: '' });
    expect(calls).toEqual([{ name: 'place', body, foreignParams: { s: 1 } }]);
  });

  it('refuses a bad or missing signature with 401, and accepts any with verification off', async () => {
    const { handler, calls } = make();
    const p = prepareCallback('place', placeBody(), { secret: generateSigningSecret() });
    const res = await handler.handle(request(p));
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'invalid_signature', data: { reason: 'no_matching_signature' } },
    });
    const unsigned = prepareCallback('place', placeBody());
    expect((await handler.handle(request(unsigned))).status).toBe(401);
    expect(calls).toHaveLength(0);
    const open = make({ verifySignature: false, secret: undefined });
    expect((await open.handler.handle(request(unsigned))).status).toBe(204);
    expect(() => createCallbackHandler({ handlers: {} })).toThrow(TypeError);
  });

  it('honours the clock and tolerance of the signature check', async () => {
    const { handler } = make({ now: () => new Date(Date.now() + 301_000) });
    expect((await handler.handle(request(prepareCallback('place', placeBody(), { secret })))).status).toBe(
      401,
    );
    const lenient = make({ now: () => new Date(Date.now() + 301_000), toleranceSeconds: 600 });
    expect(
      (await lenient.handler.handle(request(prepareCallback('place', placeBody(), { secret })))).status,
    ).toBe(204);
  });

  it('answers 400 validation_error naming the field for a body off the contract', async () => {
    const { handler, calls } = make();
    const bad = prepareCallback('place', { ...placeBody(), bet_stake: '10,5' }, { secret });
    const res = await handler.handle(request(bad));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'validation_error',
      data: { field: 'body.bet_stake' },
    });
    const notJson = { ...prepareCallback('place', placeBody(), { secret }), body: '{' };
    expect((await make({ verifySignature: false }).handler.handle(request(notJson))).status).toBe(400);
    expect(calls).toHaveLength(0);
  });

  it('answers 400 for a Foreign-Params that is not a JSON object', async () => {
    const { handler } = make({ verifySignature: false });
    const p = prepareCallback('place', placeBody());
    p.headers['foreign-params'] = '[1,2]';
    const res = await handler.handle(request(p));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.data.field).toBe('headers.foreign-params');
  });

  it('requires webhook-id to equal request_id when verifying (D11)', async () => {
    const { handler, calls } = make();
    const p = prepareCallback('place', placeBody(), { secret });
    const headers = {
      ...p.headers,
      ...signCallback({ secret, id: 'msg_other', timestamp: new Date(), body: p.body }),
    };
    const res = await handler.handle(request({ ...p, headers }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.data.field).toBe('headers.webhook-id');
    expect(calls).toHaveLength(0);
  });

  it('serves 404 for unknown paths and unimplemented callbacks, 405 for GET, 204 for a default heartbeat', async () => {
    const { handler } = make();
    expect((await handler.handle({ method: 'POST', path: '/nope', headers: {}, body: '' })).status).toBe(404);
    const co = await handler.handle(
      request(prepareCallback('cashOutAccepted', cashOutAcceptedBody(), { secret })),
    );
    expect(co.status).toBe(404);
    expect(JSON.parse(co.body).error.code).toBe('not_implemented');
    const get = await handler.handle({
      ...request(prepareCallback('place', placeBody(), { secret })),
      method: 'GET',
    });
    expect(get.status).toBe(405);
    const hb = await handler.handle(request(prepareCallback('heartbeat', null, { secret })));
    expect(hb.status).toBe(204);
  });

  it('calls the heartbeat handler with Foreign-Params and answers 500 when it throws', async () => {
    const seen: unknown[] = [];
    let fail = false;
    const handler = createCallbackHandler({
      verifySignature: false,
      handlers: {
        heartbeat: (ctx) => {
          seen.push(ctx.foreignParams);
          if (fail) throw new Error('down');
        },
      },
    });
    const hb = prepareCallback('heartbeat', null, { foreignParams: { wl: 'a' } });
    expect((await handler.handle(request(hb))).status).toBe(204);
    fail = true;
    expect((await handler.handle(request(hb))).status).toBe(500);
    expect(seen).toEqual([{ wl: 'a' }, { wl: 'a' }]);
  });

  it('serves paths under basePath', async () => {
    const { handler } = make({ basePath: '/cb/' });
    expect(handler.paths).toContain('/cb/bet/place');
    const p = prepareCallback('place', placeBody(), { secret });
    expect((await handler.handle(request({ ...p, path: `/cb${p.path}?x=1` }))).status).toBe(204);
    expect((await handler.handle(request(p))).status).toBe(404);
  });

  it('replays the first answer byte-identical, 409s a different body, and runs the handler once', async () => {
    const store = new MemoryIdempotencyStore();
    const { handler, calls } = make({ store });
    const body = placeBody({ bet_stake: '999.000000' });
    const p = prepareCallback('place', body, { secret });
    const first = await handler.handle(request(p));
    expect(first.status).toBe(400);
    expect(first.body).toBe('{"error":{"code":"not_enough_balance","data":{"actual_balance":"1.000000"}}}');
    const again = await handler.handle(request(prepareCallback('place', body, { secret })));
    expect(again.status).toBe(first.status);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const changed = await handler.handle(
      request(prepareCallback('place', { ...body, bet_stake: '1.000000' }, { secret })),
    );
    expect(changed.status).toBe(409);
    expect(JSON.parse(changed.body).error.code).toBe('idempotency_conflict');
    expect(calls).toHaveLength(1);
    expect(store.size).toBe(1);
  });

  it('treats the same request_id on another path as a different request (409)', async () => {
    const { handler } = make({ handlers: { decline: () => {}, settle: () => {} } });
    const d = declineBody();
    expect((await handler.handle(request(prepareCallback('decline', d, { secret })))).status).toBe(204);
    const s = settleBody({ request_id: d.request_id });
    expect((await handler.handle(request(prepareCallback('settle', s, { secret })))).status).toBe(409);
  });

  it('releases the claim when the handler throws, so the retry runs again', async () => {
    let attempts = 0;
    const errors: unknown[] = [];
    const handler = createCallbackHandler({
      secret,
      onError: (e) => errors.push(e),
      handlers: {
        place: () => {
          attempts++;
          if (attempts === 1) throw new Error('database down');
        },
      },
    });
    const p = prepareCallback('place', placeBody(), { secret });
    const first = await handler.handle(request(p));
    expect(first.status).toBe(500);
    expect(first.body).toBe('{"error":{"code":"internal_error"}}');
    expect((await handler.handle(request(p))).status).toBe(204);
    expect((await handler.handle(request(p))).status).toBe(204);
    expect(attempts).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('stores a thrown CallbackError as the answer', async () => {
    let attempts = 0;
    const handler = createCallbackHandler({
      secret,
      handlers: {
        place: () => {
          attempts++;
          throw notEnoughBalance('0.000000');
        },
      },
    });
    const p = prepareCallback('place', placeBody(), { secret });
    const a = await handler.handle(request(p));
    const b = await handler.handle(request(p));
    expect([a.status, b.status]).toEqual([400, 400]);
    expect(b.body).toBe(a.body);
    expect(attempts).toBe(1);
  });

  it('runs concurrent duplicates once', async () => {
    let running = 0;
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      handlers: {
        place: async () => {
          calls++;
          running++;
          await new Promise((r) => setTimeout(r, 20));
          expect(running).toBe(1);
          running--;
        },
      },
    });
    const p = prepareCallback('place', placeBody(), { secret });
    const answers = await Promise.all(Array.from({ length: 5 }, () => handler.handle(request(p))));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204]);
    expect(calls).toBe(1);
  });
});
