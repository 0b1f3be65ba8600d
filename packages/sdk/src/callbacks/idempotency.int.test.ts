import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../signing.js';
import { callbackError, notEnoughBalance } from './errors.js';
import { placeBody, prepareCallback } from './fixtures.js';
import { createCallbackHandler } from './handler.js';
import type { IdempotencyStore } from './idempotency.js';
import { kyselyRunner } from './kysely-runner.js';
import { MemoryIdempotencyStore } from './memory-store.js';
import { SqlIdempotencyStore } from './sql-store.js';
import type { CallbackContext, CallbackRequest } from './types.js';

const secret = generateSigningSecret();
const send = (p: { path: string; body: string; headers: Record<string, string> }): CallbackRequest => ({
  method: 'POST',
  path: p.path,
  headers: p.headers,
  body: Buffer.from(p.body),
});

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await sql`CREATE TABLE effects (request_id text NOT NULL, stake text NOT NULL)`.execute(db.db);
});
afterAll(async () => {
  await db?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the store's unit of work differs per store
type AnyStore = IdempotencyStore<any>;

const stores: [string, () => Promise<AnyStore>][] = [
  ['memory', async () => new MemoryIdempotencyStore()],
  [
    'sql',
    async () => {
      const table = `answers_${Math.random().toString(36).slice(2, 8)}`;
      const s = new SqlIdempotencyStore(kyselyRunner(db.db), { table });
      await s.ensureSchema();
      return s;
    },
  ],
];

describe.each(stores)('idempotent handler on the %s store', (_name, makeStore) => {
  it('replays the first answer byte-identical and runs the handler once', async () => {
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      store: await makeStore(),
      handlers: {
        place: (b) => {
          calls++;
          if (b.bet_stake === '50.000000') return notEnoughBalance('12.340000');
        },
      },
    });
    for (const stake of ['10.000000', '50.000000']) {
      const body = placeBody({ bet_stake: stake });
      const first = await handler.handle(send(prepareCallback('place', body, { secret })));
      for (let i = 0; i < 3; i++) {
        const again = await handler.handle(send(prepareCallback('place', body, { secret })));
        expect(again.status).toBe(first.status);
        expect(again.body).toBe(first.body);
        expect(again.headers['content-type']).toBe(first.headers['content-type']);
      }
    }
    expect(calls).toBe(2);
  });

  it('answers 409 to the same request_id with another body, and applies nothing', async () => {
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      store: await makeStore(),
      handlers: { place: () => void calls++ },
    });
    const body = placeBody();
    expect((await handler.handle(send(prepareCallback('place', body, { secret })))).status).toBe(204);
    const other = { ...body, bet_stake: '11.000000' };
    const res = await handler.handle(send(prepareCallback('place', other, { secret })));
    expect(res.status).toBe(409);
    expect(calls).toBe(1);
    // the original still replays
    expect((await handler.handle(send(prepareCallback('place', body, { secret })))).status).toBe(204);
  });

  it('releases the claim when the handler throws, so a retry succeeds', async () => {
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      store: await makeStore(),
      handlers: {
        place: () => {
          calls++;
          if (calls < 3) throw new Error('transient');
        },
      },
    });
    const p = prepareCallback('place', placeBody(), { secret });
    expect((await handler.handle(send(p))).status).toBe(500);
    expect((await handler.handle(send(p))).status).toBe(500);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect(calls).toBe(3);
  });

  it('answers a transient refusal without storing it, so the retry is evaluated afresh', async () => {
    let known = false;
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      store: await makeStore(),
      handlers: {
        place: () => {
          calls++;
          if (!known) return callbackError('bet_unknown', { bet_id: 'b' }, { transient: true });
        },
      },
    });
    const p = prepareCallback('place', placeBody(), { secret });
    const first = await handler.handle(send(p));
    expect(first.status).toBe(400);
    expect(first.body).toBe('{"error":{"code":"bet_unknown","data":{"bet_id":"b"}}}');
    known = true;
    expect((await handler.handle(send(p))).status).toBe(204);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect(calls).toBe(2);
  });

  it('runs concurrent duplicates once and gives all the same answer', async () => {
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      store: await makeStore(),
      handlers: {
        place: async () => {
          calls++;
          await new Promise((r) => setTimeout(r, 30));
          return notEnoughBalance('1.000000');
        },
      },
    });
    const p = prepareCallback('place', placeBody(), { secret });
    const answers = await Promise.all(Array.from({ length: 6 }, () => handler.handle(send(p))));
    expect(new Set(answers.map((a) => `${a.status} ${a.body}`)).size).toBe(1);
    expect(answers[0]!.status).toBe(400);
    expect(calls).toBe(1);
  });
});

describe('SQL store: the handler writes in the same transaction as the claim and the answer', () => {
  type Ctx = CallbackContext<Transaction<{ effects: { request_id: string; stake: string } }>>;
  const effects = async (requestId: string) =>
    (
      await sql<{
        n: string;
      }>`SELECT count(*)::text AS n FROM effects WHERE request_id = ${requestId}`.execute(db.db)
    ).rows[0]!.n;

  it('commits the effect exactly once and rolls it back with the claim on a throw', async () => {
    let failNext = true;
    const store = new SqlIdempotencyStore(kyselyRunner(db.db), { table: 'answers_tx' });
    await store.ensureSchema();
    const handler = createCallbackHandler({
      secret,
      store,
      handlers: {
        place: async (b, ctx: Ctx) => {
          await ctx.tx
            .insertInto('effects')
            .values({ request_id: b.request_id, stake: b.bet_stake })
            .execute();
          if (failNext) {
            failNext = false;
            throw new Error('crash after the write');
          }
        },
      },
    });
    const body = placeBody();
    const p = prepareCallback('place', body, { secret });
    expect((await handler.handle(send(p))).status).toBe(500);
    expect(await effects(body.request_id)).toBe('0');
    expect(await store.get(body.request_id)).toBeUndefined();
    expect((await handler.handle(send(p))).status).toBe(204);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect(await effects(body.request_id)).toBe('1');
    expect(await store.get(body.request_id)).toEqual({ status: 204, contentType: '', body: '' });
  });

  it('applies concurrent duplicates once on the database', async () => {
    const store = new SqlIdempotencyStore(kyselyRunner(db.db), { table: 'answers_tx' });
    const handler = createCallbackHandler({
      secret,
      store,
      handlers: {
        place: async (b, ctx: Ctx) => {
          await ctx.tx
            .insertInto('effects')
            .values({ request_id: b.request_id, stake: b.bet_stake })
            .execute();
          await new Promise((r) => setTimeout(r, 20));
        },
      },
    });
    const body = placeBody();
    const p = prepareCallback('place', body, { secret });
    const answers = await Promise.all(Array.from({ length: 8 }, () => handler.handle(send(p))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(204));
    expect(await effects(body.request_id)).toBe('1');
  });
});
