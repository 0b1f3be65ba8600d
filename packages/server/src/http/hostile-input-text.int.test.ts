import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app/test-app.js';
import { LONE_HIGH, LONE_LOW, NUL, type Operation, useHostileWorld } from './hostile-input.testing.js';

/**
 * Hostile text over every operation of `/openapi.json` (docs/adr/0016-safety-and-conformance.md): the text rule
 * (no NUL, no lone surrogate in any string) answers 400 naming the field and writes nothing; so does a body nested
 * too deep; the token endpoint takes NUL in a form body without a 5xx.
 */
describe(`hostile input (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let operations: Operation[] = [];

  const { url, send, namedField, rowCounts } = useHostileWorld((started) => {
    ({ t, operations } = started);
  });

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
});
