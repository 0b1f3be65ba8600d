import { CALLBACK_NAMES, callbackBodyIssues } from '@bookie/contracts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/database.js';
import { createPartner, createSession, manualClock, type TestPartner } from '../../../testing/partner.js';
import { revokeCredential } from '../../tenants/revoke-credential.js';
import { pkceChallenge } from './authorize-mcp-client.js';
import { CredentialAuthProvider, connectWithCredential } from './credential-auth-provider.js';
import { CONTRACT_TOOLS } from './mcp-server.js';
import { partnerMayCall, restOperations } from './rest-operations.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let db: TestDatabase;
let t: TestApp;
let base: string;
let partner: TestPartner;
let provider: CredentialAuthProvider;
let client: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db, { env: { BOOKIE_ENV: 'integration' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  partner = await createPartner({ database: db }, { callback_url: 'http://127.0.0.1:9/callbacks' });
  provider = new CredentialAuthProvider({ clientId: partner.clientId, clientSecret: partner.clientSecret });
  client = await connectWithCredential(new URL('/mcp', base), provider);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

type TextResult = {
  content: { type: string; text: string }[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
const text = (r: unknown) => (r as TextResult).content[0]?.text ?? '';
const json = (r: unknown) => JSON.parse(text(r));

describe(`the MCP server over Streamable HTTP with OAuth (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('lists one tool per operation of /openapi.json plus the three contract tools', async () => {
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    const operations = Object.values(doc.paths as Record<string, Record<string, unknown>>).reduce(
      (n, item) => n + Object.keys(item).filter((m) => m !== 'parameters').length,
      0,
    );
    const { tools } = await client.listTools();
    const all = restOperations(doc);
    expect(all.length).toBe(operations);
    const partners = all.filter(partnerMayCall);
    expect(tools.length).toBe(partners.length + CONTRACT_TOOLS.length);
    const names = tools.map((x) => x.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => !(CONTRACT_TOOLS as readonly string[]).includes(n)).sort()).toEqual(
      partners.map((o) => o.name).sort(),
    );
    // a white label's connection does not see the operator's operations (operator token or backoffice session)
    for (const operatorOnly of ['createSportEvent', 'listSportEvents', 'getSession']) {
      expect(all.map((o) => o.name)).toContain(operatorOnly);
      expect(names).not.toContain(operatorOnly);
    }
    expect(partners.length).toBeLessThan(all.length);
    // the partner check is one of the REST operations of the integration environment
    expect(names).toContain('runPartnerCheck');
  });

  it('answers get_contract in its three forms', async () => {
    const all = json(await client.callTool({ name: 'get_contract', arguments: {} }));
    expect(all.specs.map((s: { spec: string }) => s.spec)).toEqual([
      'callbacks',
      'partner-api',
      'feed',
      'mts',
      'advisory',
    ]);
    expect(all.specs.find((s: { spec: string }) => s.spec === 'callbacks').implemented_by).toBe('partner');

    const feed = json(await client.callTool({ name: 'get_contract', arguments: { spec: 'feed' } }));
    expect(feed.operations.map((o: { path: string }) => o.path)).toEqual(
      expect.arrayContaining(['/all', '/log']),
    );

    const partnerApi = json(
      await client.callTool({ name: 'get_contract', arguments: { spec: 'partner-api' } }),
    );
    const create = partnerApi.operations.find((o: { path: string }) => o.path === '/freebet/create');
    const resolved = json(
      await client.callTool({
        name: 'get_contract',
        arguments: { spec: 'partner-api', operation: create.operation },
      }),
    );
    expect(resolved.request.properties.body.required).toEqual(
      expect.arrayContaining(['player_id', 'currency_code', 'amount', 'conditions']),
    );
    expect(JSON.stringify(resolved.request)).not.toContain('$ref');

    const place = json(
      await client.callTool({ name: 'get_contract', arguments: { spec: 'callbacks', operation: 'place' } }),
    );
    expect(place.path).toBe('/bet/place');
    expect(place.request.body.required).toContain('bet_stake');

    await expect(
      client.callTool({ name: 'get_contract', arguments: { spec: 'nope' } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('spec: must be equal to one of the allowed values'),
    });
    const badOperation = (await client.callTool({
      name: 'get_contract',
      arguments: { spec: 'callbacks', operation: 'nope' },
    })) as TextResult;
    expect(badOperation.isError).toBe(true);
  });

  it('lists every callback endpoint with its request and expected answer', async () => {
    const r = json(await client.callTool({ name: 'list_callback_endpoints', arguments: {} }));
    expect(r.callbacks.map((c: { callback: string }) => c.callback)).toEqual(CALLBACK_NAMES);
    for (const c of r.callbacks) expect(c.expected_response.success).toMatch(/^204/);
  });

  it('builds callback fixtures that validate against the callback schemas, with overrides', async () => {
    for (const name of CALLBACK_NAMES) {
      const r = json(
        await client.callTool({ name: 'build_callback_fixture', arguments: { callback: name } }),
      );
      expect(callbackBodyIssues(name, r.body)).toEqual([]);
    }
    const over = json(
      await client.callTool({
        name: 'build_callback_fixture',
        arguments: { callback: 'settle', overrides: { settle_amount: '0.000000', settle_type: 3 } },
      }),
    );
    expect(over.body).toMatchObject({ settle_amount: '0.000000', settle_type: 3 });
    expect(callbackBodyIssues('settle', over.body)).toEqual([]);
    const broken = (await client.callTool({
      name: 'build_callback_fixture',
      arguments: { callback: 'settle', overrides: { settle_amount: 12.5 } },
    })) as TextResult;
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(/settle_amount/);
  });

  it('answers a REST tool call byte for byte as the REST call', async () => {
    const token = (await provider.tokens())?.access_token;
    const ops = restOperations(await (await fetch(`${base}/openapi.json`)).json());
    const whiteLabel = ops.find((o) => o.method === 'GET' && o.path === '/white-label');
    const freebet = ops.find((o) => o.method === 'GET' && o.path === '/freebet/{id}');
    if (!whiteLabel || !freebet) throw new Error('operations missing from /openapi.json');

    const rest = await fetch(`${base}/white-label`, { headers: { authorization: `Bearer ${token}` } });
    const viaTool = (await client.callTool({ name: whiteLabel.name, arguments: {} })) as TextResult;
    expect(text(viaTool)).toBe(await rest.text());
    expect(viaTool._meta?.['bookie/status']).toBe(rest.status);

    const missing = await fetch(`${base}/freebet/no-such-freebet`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const missingTool = (await client.callTool({
      name: freebet.name,
      arguments: { id: 'no-such-freebet' },
    })) as TextResult;
    expect(missingTool.isError).toBe(true);
    expect(text(missingTool)).toBe(await missing.text());
    expect(missingTool._meta?.['bookie/status']).toBe(missing.status);
  });

  it("takes another bearer token for one call (a player's session for the frame API); streams are refused", async () => {
    const token = (await provider.tokens())?.access_token ?? '';
    const session = await createSession(base, token, { player_id: 'mcp-player' });
    const ops = restOperations(await (await fetch(`${base}/openapi.json`)).json());
    const history = ops.find((o) => o.method === 'GET' && o.path === '/frame-api/bets');
    const stream = ops.find((o) => o.method === 'GET' && o.path === '/frame-api/stream');
    if (!history || !stream) throw new Error('frame operations missing from /openapi.json');
    const rest = await fetch(`${base}/frame-api/bets`, { headers: { authorization: `Bearer ${session}` } });
    const viaTool = (await client.callTool({
      name: history.name,
      arguments: { bearer_token: session },
    })) as TextResult;
    expect(viaTool._meta?.['bookie/status']).toBe(200);
    expect(text(viaTool)).toBe(await rest.text());
    const streamed = (await client.callTool({
      name: stream.name,
      arguments: { bearer_token: session },
    })) as TextResult;
    expect(streamed.isError).toBe(true);
    expect(text(streamed)).toMatch(/stream/);
  });

  it('answers arguments of the wrong type, missing ones and tools the caller may not call with invalid params naming the field; nothing written', async () => {
    const ops = restOperations(await (await fetch(`${base}/openapi.json`)).json());
    const create = ops.find((o) => o.method === 'POST' && o.path === '/freebet/create');
    const freebet = ops.find((o) => o.method === 'GET' && o.path === '/freebet/{id}');
    if (!create || !freebet) throw new Error('operations missing from /openapi.json');
    const freebets = async () =>
      Number(
        (
          await db.db
            .selectFrom('freebet')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await freebets();
    const body = {
      player_id: 'p1',
      currency_code: 'EUR',
      amount: '5',
      conditions: [
        {
          type: 'bet_details',
          data: { bet_details: [{ type: 'single', data: { odds_count: { min: 1 } } }] },
        },
      ],
    };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [create.name, { body: { ...body, amount: 5 } }, 'body.amount: must be string'],
      [create.name, { body: { ...body, conditions: 'all' } }, 'body.conditions: must be array'],
      [create.name, { body: 'a string' }, 'body: must be object'],
      [create.name, {}, 'body: is required'],
      [freebet.name, { id: 42 }, 'id: must be string'],
      [freebet.name, {}, 'id: is required'],
      [freebet.name, { id: 'x', bearer_token: 7 }, 'bearer_token: must be string'],
      ['build_callback_fixture', { callback: 'place', overrides: [] }, 'overrides: must be object'],
      ['createSportEvent', { body: {} }, 'name: unknown tool "createSportEvent"'],
      ['no_such_tool', {}, 'name: unknown tool'],
    ];
    for (const [name, args, message] of cases) {
      await expect(
        client.callTool({ name, arguments: args }),
        `${name} ${JSON.stringify(args)}`,
      ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(message) });
    }
    expect(await freebets()).toBe(before);
    // a value the schema refuses (a decimal with leading zeros) is invalid params too
    await expect(
      client.callTool({ name: create.name, arguments: { body: { ...body, amount: '007' } } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('body.amount: must match pattern'),
    });
    // arguments the schema takes reach the route, whose own 400 comes back as the REST answer
    const refused = (await client.callTool({
      name: create.name,
      arguments: { body: { ...body, amount: '0' } },
    })) as TextResult;
    expect(refused.isError).toBe(true);
    expect(refused._meta?.['bookie/status']).toBe(400);
    expect(JSON.parse(text(refused)).error.details.field).toBe('body.amount');
    expect(await freebets()).toBe(before);
  });

  it('answers a JSON-RPC body nested 100,000 deep with 400 naming the body', async () => {
    const token = (await provider.tokens())?.access_token;
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_contract","arguments":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    for (const payload of [deep, '['.repeat(100_000) + ']'.repeat(100_000)]) {
      const r = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: payload,
      });
      expect(r.status).toBe(400);
      expect((await r.json()).error.details.field).toBe('body');
    }
  });

  it('refuses /mcp without a token and points at the protected resource metadata', async () => {
    const r = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const meta = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(meta).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
  });
});

describe('MCP authorization', () => {
  async function register(): Promise<string> {
    const r = await fetch(`${base}/mcp/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], client_name: 'test' }),
    });
    expect(r.status).toBe(201);
    return (await r.json()).client_id;
  }
  const verifier = 'v'.repeat(50);
  const authorizeForm = (clientId: string, secret: string) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1/cb',
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
      state: 's1',
      client_id_credential: partner.clientId,
      client_secret: secret,
    }).toString();

  it('refuses a registration without redirect URIs, naming the field', async () => {
    const r = await fetch(`${base}/mcp/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'x' }),
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: expect.stringMatching(/^redirect_uris/),
    });
  });

  it('refuses an authorization request for another resource (RFC 8707)', async () => {
    const clientId = await register();
    const q = new URLSearchParams(authorizeForm(clientId, ''));
    q.set('resource', 'http://elsewhere.example/mcp');
    const r = await fetch(`${base}/mcp/authorize?${q}`);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain(`resource must be ${base}/mcp`);
  });

  it('refuses a wrong client secret on the authorize page', async () => {
    const clientId = await register();
    const r = await fetch(`${base}/mcp/authorize`, {
      method: 'POST',
      headers: FORM,
      body: authorizeForm(clientId, 'wrong'),
      redirect: 'manual',
    });
    expect(r.status).toBe(401);
    expect(await r.text()).toMatch(/client id or secret is wrong/);
  });

  it('exchanges a code once, with PKCE, and rotates refresh tokens', async () => {
    const clientId = await register();
    const auth = await fetch(`${base}/mcp/authorize`, {
      method: 'POST',
      headers: FORM,
      body: authorizeForm(clientId, partner.clientSecret),
      redirect: 'manual',
    });
    expect(auth.status).toBe(302);
    const location = new URL(auth.headers.get('location') ?? '');
    expect(location.searchParams.get('state')).toBe('s1');
    const code = location.searchParams.get('code') ?? '';
    const token = (params: Record<string, string>) =>
      fetch(`${base}/mcp/token`, {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams(params).toString(),
      });
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://127.0.0.1/cb',
      client_id: clientId,
    };

    const wrongVerifier = await token({ ...exchange, code_verifier: 'w'.repeat(50) });
    expect(wrongVerifier.status).toBe(400);
    expect((await wrongVerifier.json()).error).toBe('invalid_grant');

    const forOther = await fetch(`${base}/mcp/authorize`, {
      method: 'POST',
      headers: FORM,
      body: `${authorizeForm(clientId, partner.clientSecret)}&resource=${encodeURIComponent(`${base}/mcp`)}`,
      redirect: 'manual',
    });
    const otherCode = new URL(forOther.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const wrongResource = await token({
      ...exchange,
      code: otherCode,
      code_verifier: verifier,
      resource: 'http://elsewhere.example/mcp',
    });
    expect(wrongResource.status).toBe(400);
    expect((await wrongResource.json()).error).toBe('invalid_target');

    const code2 = await fetch(`${base}/mcp/authorize`, {
      method: 'POST',
      headers: FORM,
      body: authorizeForm(clientId, partner.clientSecret),
      redirect: 'manual',
    });
    const exchange2 = {
      ...exchange,
      code: new URL(code2.headers.get('location') ?? '').searchParams.get('code') ?? '',
    };
    const first = await token({ ...exchange2, code_verifier: verifier });
    expect(first.status).toBe(200);
    const tokens = await first.json();
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    expect((await token({ ...exchange2, code_verifier: verifier })).status).toBe(400);

    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect((await refreshed.json()).refresh_token).not.toBe(tokens.refresh_token);
    const reused = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe('invalid_grant');
  });

  it('ends access when the credential is revoked: the connected client is refused and cannot connect again', async () => {
    const p = await createPartner({ database: db });
    const own = new CredentialAuthProvider({ clientId: p.clientId, clientSecret: p.clientSecret });
    const c = await connectWithCredential(new URL('/mcp', base), own);
    expect((await c.listTools()).tools.length).toBeGreaterThan(3);
    const refresh = (await own.tokens())?.refresh_token;
    await revokeCredential(t.deps, { whiteLabelId: p.whiteLabelId, clientId: p.clientId });
    await expect(c.listTools()).rejects.toThrow();
    await expect(connectWithCredential(new URL('/mcp', base), own)).rejects.toThrow(
      /authorization refused|revoked/,
    );
    const reg = (await own.clientInformation())?.client_id ?? '';
    const r = await fetch(`${base}/mcp/token`, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh ?? '',
        client_id: reg,
      }).toString(),
    });
    expect(r.status).toBe(400);
    await c.close();
  });
});

describe('MCP refresh', () => {
  it('refreshes an expired access token with the refresh token, transparently to the client', async () => {
    const clock = manualClock();
    const app = await createTestApp(db, { env: { BOOKIE_ENV: 'integration' }, clock, keepDatabase: true });
    try {
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.app.server.address();
      const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/mcp`;
      const own = new CredentialAuthProvider({
        clientId: partner.clientId,
        clientSecret: partner.clientSecret,
      });
      let authorizations = 0;
      const authorize = own.redirectToAuthorization.bind(own);
      own.redirectToAuthorization = (u: URL) => {
        authorizations++;
        return authorize(u);
      };
      const c = await connectWithCredential(new URL(url), own);
      const first = await own.tokens();
      clock.advance((app.deps.config.auth.accessTokenTtlS + 1) * 1000);
      expect((await c.listTools()).tools.length).toBeGreaterThan(3);
      const second = await own.tokens();
      expect(second?.access_token).not.toBe(first?.access_token);
      expect(second?.refresh_token).not.toBe(first?.refresh_token);
      // refreshed, not authorized again
      expect(authorizations).toBe(1);
      await c.close();
    } finally {
      await app.close();
    }
  });
});
