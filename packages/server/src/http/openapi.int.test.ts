import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { wrongStatusMentions } from '@bookie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app/test-app.js';
import { createTestDatabase } from '../testing/database.js';
import { completeDocument, operationsOf } from './openapi.js';

type Json = Record<string, unknown>;

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  // the integration environment serves every route (production leaves the sandbox and partner check out)
  t = await createTestApp(await createTestDatabase(), { env: { BOOKIE_ENV: 'integration' } });
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await t?.close();
});

const ops = () => operationsOf(doc);
const name = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;
const hasExample = (media: Json) => media.example !== undefined || media.examples !== undefined;

/**
 * Every operation of /openapi.json — including routes added later — must carry what a partner generating a client
 * needs. A failure names the operations that lack it; the fix is in the route's `schema` (see CONTRIBUTING.md
 * "HTTP routes").
 */
describe('/openapi.json: every operation', () => {
  it('has a unique camelCase operationId', () => {
    const missing = ops()
      .filter((o) => !/^[a-z][A-Za-z0-9]*$/.test(o.op.operationId ?? ''))
      .map(name);
    expect(missing).toEqual([]);
    const ids = ops().map((o) => o.op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has a summary, a description and tags', () => {
    const lacking = ops()
      .filter(
        (o) => !o.op.summary || !o.op.description || !Array.isArray(o.op.tags) || o.op.tags.length === 0,
      )
      .map(name);
    expect(lacking).toEqual([]);
  });

  it('says how it is authenticated (security, [] when public)', () => {
    expect(
      ops()
        .filter((o) => !Array.isArray(o.op.security))
        .map(name),
    ).toEqual([]);
  });

  // the exceptions: OAuth errors have RFC 6749's body, readiness answers 503 with its status
  const OWN_ERROR_BODIES = [
    '#/components/schemas/OAuthErrorBody',
    '#/components/schemas/ServiceStatus',
    // the same error body, registered as a shared schema by the partner REST routes
    '#/components/schemas/ApiErrorBody',
  ];

  it('lists its error answers, each with the one error schema (OAuth and readiness excepted)', () => {
    const bad: string[] = [];
    for (const o of ops()) {
      const errors = Object.entries(o.op.responses ?? {}).filter(([s]) => /^[45]/.test(s));
      if (errors.length === 0) bad.push(`${name(o)}: no error answer`);
      for (const [status, answer] of errors) {
        const schema = ((answer.content as Json | undefined)?.['application/json'] as Json | undefined)
          ?.schema as Json | undefined;
        const ref = String(schema?.$ref);
        const ok = ref === '#/components/schemas/Error' || OWN_ERROR_BODIES.includes(ref);
        if (!ok) bad.push(`${name(o)} ${status}: ${JSON.stringify(schema)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('has an example request (when it takes a body) and an example answer', () => {
    const bad: string[] = [];
    for (const o of ops()) {
      const body = (o.op.requestBody?.content ?? {}) as Record<string, Json>;
      for (const [type, media] of Object.entries(body)) {
        if (!hasExample(media)) bad.push(`${name(o)}: request ${type}`);
      }
      const ok = Object.entries(o.op.responses ?? {}).filter(([s]) => /^2/.test(s));
      const answered = ok.some(([, answer]) => {
        const content = answer.content as Record<string, Json> | undefined;
        // an answer without a body (204, 202 without content) needs no example
        if (!content || Object.keys(content).length === 0) return true;
        return Object.values(content).every(hasExample);
      });
      if (!answered) bad.push(`${name(o)}: answer`);
    }
    expect(bad).toEqual([]);
  });
});

describe('/openapi.json: the document', () => {
  it("speaks in the repository's own words: no ../shared, bare decision ids, spec or issue numbers", () => {
    const texts: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const n of node) walk(n);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'description' || k === 'summary') && typeof v === 'string') texts.push(v);
        else walk(v);
      }
    };
    walk(doc);
    expect(texts.length).toBeGreaterThan(100);
    expect(
      texts.filter((t) => /\.\.\/shared|shared\/(spec|design)|\bD\d{1,2}\b|\bspec 0\d|issue \d/.test(t)),
    ).toEqual([]);
  });

  it('numbers statuses as the contracts table does (a void market is 5 refunded, never 3)', () => {
    const texts: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) for (const n of node) walk(n);
      else if (typeof node === 'object' && node !== null)
        for (const [k, v] of Object.entries(node)) {
          if ((k === 'description' || k === 'summary') && typeof v === 'string') texts.push(v);
          else walk(v);
        }
    };
    walk(doc);
    expect(texts.flatMap((t) => wrongStatusMentions(t).map((m) => `"${m.said}" in: ${t}`))).toEqual([]);
    const patch = ops().find((o) => o.op.operationId === 'patchMarkets');
    expect(patch?.op.description).toContain(
      'Odd statuses are the results that settle bets: 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded, 6 cancelled.',
    );
  });

  it('names its schemas, servers, license and security schemes', () => {
    const components = doc.components as Json;
    const schemas = Object.keys(components.schemas as Json);
    expect(schemas).toEqual(
      expect.arrayContaining(['Error', 'BetView', 'CreateWhiteLabelBody', 'PlaceBetRequest']),
    );
    expect(schemas.filter((s) => /^(def-|Schema)\d+$/.test(s))).toEqual([]);
    expect((doc.servers as unknown[]).length).toBeGreaterThan(0);
    expect((doc.info as Json).license).toMatchObject({ name: 'Apache-2.0' });
    expect(Object.keys(components.securitySchemes as Json).sort()).toEqual([
      'admin',
      'basic',
      'bearer',
      'clientCertificate',
      'session',
    ]);
  });

  it('gives Redocly lint 0 errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookie-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const require = createRequire(import.meta.url);
      const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [cli, 'lint', file, '--format=json'],
          { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } },
          // exit code 1 when there are errors: the totals say which
          (err, stdout) => (stdout ? resolve(stdout) : reject(err)),
        ),
      );
      const report = JSON.parse(out.slice(out.indexOf('{'))) as {
        totals: { errors: number };
        problems: Array<{
          ruleId: string;
          severity: string;
          message: string;
          location: Array<{ pointer: string }>;
        }>;
      };
      const errors = report.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('completeDocument', () => {
  it('adds the error answers an operation can give, keeping its own', () => {
    const out = completeDocument({
      paths: {
        '/x/{id}': {
          post: {
            security: [{ bearer: [] }],
            requestBody: { content: {} },
            responses: { '200': { description: 'ok' }, '409': { description: 'already done' } },
          },
        },
        '/healthz': { get: { security: [], responses: { '200': { description: 'ok' } } } },
      },
    });
    const [x, health] = operationsOf(out);
    expect(Object.keys(x!.op.responses!).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '429',
      '500',
    ]);
    expect(x!.op.responses!['409']).toMatchObject({
      description: 'already done',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(Object.keys(health!.op.responses!).sort()).toEqual(['200', '500']);
  });
});
