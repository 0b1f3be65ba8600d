import { CALLBACK_NAMES, callbackBodyIssues } from '@bookie/contracts';
import { describe, expect, it } from 'vitest';
import { callbackFixture, getContract, listCallbackEndpoints } from './contract.js';
import { requestOf, resolveRefs, restOperations, toolName } from './rest-operations.js';

const doc = {
  components: { schemas: { Money: { type: 'string', pattern: '^[0-9]+$' } } },
  paths: {
    '/freebet/{id}': {
      get: {
        tags: ['freebets'],
        summary: 'A freebet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: {} },
      },
    },
    '/freebet/create': {
      post: {
        operationId: 'createFreebet',
        tags: ['freebets'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', properties: { amount: { $ref: '#/components/schemas/Money' } } },
            },
          },
        },
        responses: { 201: {} },
      },
    },
    '/log': {
      get: {
        tags: ['feed'],
        parameters: [{ name: 'heartbeat_interval', in: 'query', schema: { type: 'integer' } }],
        responses: { 200: { content: { 'text/event-stream': {} } } },
      },
    },
    '/bets/advisory': { post: { operationId: 'adviseBet', tags: ['advisory'], responses: { 200: {} } } },
  },
};

describe('REST operations as tools', () => {
  it('names a tool by its operationId, or by method and path when it has none', () => {
    expect(toolName('get', '/freebet/{id}')).toBe('get_freebet_id');
    expect(toolName('post', '/freebet/create', 'createFreebet')).toBe('createFreebet');
    expect(restOperations(doc).map((o) => o.name)).toEqual([
      'get_freebet_id',
      'createFreebet',
      'get_log',
      'adviseBet',
    ]);
  });

  it('gives two operations with the same fallback name distinct names', () => {
    const twins = { paths: { '/a-b': { get: {} }, '/a_b': { get: {} } } };
    expect(restOperations(twins).map((o) => o.name)).toEqual(['get_a_b', 'get_a_b_2']);
  });

  it('resolves $refs into the input schema and marks streams', () => {
    const [byId, create, log] = restOperations(doc);
    expect(byId?.inputSchema.required).toEqual(['id']);
    expect(create?.inputSchema).toMatchObject({
      required: ['body'],
      properties: { body: { properties: { amount: { type: 'string', pattern: '^[0-9]+$' } } } },
    });
    expect(JSON.stringify(resolveRefs(doc.paths, doc))).not.toContain('$ref');
    expect(log?.streaming).toBe(true);
    expect(byId?.streaming).toBe(false);
    const described = {
      paths: {
        '/s': { get: { summary: 'Live stream (text/event-stream)' } },
        '/all': { get: { responses: { 200: { content: { 'application/x-ndjson': {} } } } } },
      },
    };
    expect(restOperations(described).map((o) => o.streaming)).toEqual([true, false]);
  });

  it('builds the request: path parameters encoded, query string, JSON body', () => {
    const [byId, create, log] = restOperations(doc);
    if (!byId || !create || !log) throw new Error('operations missing');
    expect(requestOf(byId, { id: 'a/b' })).toEqual({
      method: 'GET',
      url: '/freebet/a%2Fb',
      payload: undefined,
    });
    expect(requestOf(log, { heartbeat_interval: 5 }).url).toBe('/log?heartbeat_interval=5');
    expect(requestOf(create, { body: { amount: '5' } }).payload).toBe('{"amount":"5"}');
    expect(() => requestOf(byId, {})).toThrow(/^id: required path parameter/);
  });
});

describe('get_contract', () => {
  const ops = restOperations(doc);

  it('lists the specs with who implements them; a spec without operations says it is not yet available', () => {
    const r = getContract(ops, {});
    if (!r.ok) throw new Error(r.error);
    const specs = (
      r.value as { specs: { spec: string; implemented_by: string; operations: number; status?: string }[] }
    ).specs;
    expect(specs.map((s) => [s.spec, s.implemented_by])).toEqual([
      ['callbacks', 'partner'],
      ['partner-api', 'platform'],
      ['feed', 'platform'],
      ['mts', 'platform'],
      ['advisory', 'platform'],
    ]);
    expect(specs.find((s) => s.spec === 'mts')?.status).toMatch(/not yet available/);
    expect(specs.find((s) => s.spec === 'advisory')?.operations).toBe(1);
  });

  it('lists the operations of a spec and resolves one', () => {
    const feed = getContract(ops, { spec: 'feed' });
    expect(
      feed.ok && (feed.value as { operations: { operation: string }[] }).operations.map((o) => o.operation),
    ).toEqual(['get_log']);
    const one = getContract(ops, { spec: 'partner-api', operation: 'createFreebet' });
    expect(one.ok && (one.value as { method: string }).method).toBe('POST');
    expect(getContract(ops, { spec: 'partner-api', operation: 'get_log' })).toEqual({
      ok: false,
      error: 'operation: no operation "get_log" in spec partner-api',
    });
    expect(getContract(ops, { operation: 'x' })).toEqual({
      ok: false,
      error: 'operation: give a spec with it',
    });
  });

  it('describes every callback with a body schema its fixture satisfies', () => {
    const endpoints = listCallbackEndpoints();
    expect(endpoints.map((e) => e.callback)).toEqual(CALLBACK_NAMES);
    for (const name of CALLBACK_NAMES) {
      const f = callbackFixture(name, undefined);
      if (!f.ok) throw new Error(f.error);
      expect(callbackBodyIssues(name, (f.value as { body: unknown }).body)).toEqual([]);
    }
    expect(callbackFixture('nope', undefined)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^callback:/),
    });
    expect(callbackFixture('place', [])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^overrides:/),
    });
    expect(callbackFixture('heartbeat', { a: 1 })).toMatchObject({ ok: false });
  });
});
