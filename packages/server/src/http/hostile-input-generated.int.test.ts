import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app/test-app.js';
import {
  LONE_HIGH,
  LONE_LOW,
  NUL,
  type Operation,
  STREAMS,
  useHostileWorld,
} from './hostile-input.testing.js';

/**
 * Hostile requests over every operation of `/openapi.json` (docs/adr/0016-safety-and-conformance.md):
 * authentication comes before validation; generated bad bodies, headers and path parameters never get a 5xx.
 */
describe(`hostile input (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let operations: Operation[] = [];

  const { url, send, namedField } = useHostileWorld((started) => {
    ({ t, operations } = started);
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
