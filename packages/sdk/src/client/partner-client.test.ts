import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from './partner-client.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server | undefined;
let client: PartnerClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  client = undefined;
});

/** A fake Bookie on a loopback port; returns the client and the requests it saw. */
async function fake(handler: Handler) {
  const seen: Array<{ method: string; url: string; auth: string; body: string }> = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization ?? '',
        body,
      });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  client = createPartnerClient({
    baseUrl: `http://127.0.0.1:${port}`,
    clientId: 'bkc_1',
    clientSecret: 's3cret',
    retry: { minTimeout: 5, maxTimeout: 20 },
  });
  return { client, seen };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

function tokens() {
  let n = 0;
  return (res: ServerResponse) =>
    json(res, 200, { access_token: `tok-${++n}`, token_type: 'Bearer', expires_in: 3600 });
}

describe('createPartnerClient', () => {
  it('gets a token by HTTP Basic once and calls typed operations with it', async () => {
    const token = tokens();
    const { client, seen } = await fake((req, _body, res) => {
      if (req.url === '/oauth/token') return token(res);
      if (req.url === '/token/create') return json(res, 200, { token: 'bkst_1' });
      return json(res, 200, { id: 'wl', name: 'Acme' });
    });
    const created = await client.POST('/token/create', {
      body: { player_id: 'player-42', currency: 'EUR', locale: 'en' },
    });
    expect(created.data).toEqual({ token: 'bkst_1' });
    await client.GET('/white-label');
    expect(seen.map((s) => s.url)).toEqual(['/oauth/token', '/token/create', '/white-label']);
    expect(seen[0]!.auth).toBe(`Basic ${Buffer.from('bkc_1:s3cret').toString('base64')}`);
    expect(seen[0]!.body).toBe('grant_type=client_credentials');
    expect(seen[1]!.auth).toBe('Bearer tok-1');
    expect(seen[2]!.auth).toBe('Bearer tok-1');
    expect(JSON.parse(seen[1]!.body)).toEqual({ player_id: 'player-42', currency: 'EUR', locale: 'en' });
  });

  it('retries 503 and 429 through undici, the same body each time, then answers', async () => {
    const token = tokens();
    let calls = 0;
    const { client, seen } = await fake((req, _body, res) => {
      if (req.url === '/oauth/token') return token(res);
      calls++;
      if (calls === 1)
        return json(res, 503, { error: { code: 'unavailable', message: 'busy', details: {} } });
      if (calls === 2) return res.writeHead(429, { 'retry-after': '0' }).end();
      return json(res, 201, { id: 'fb_1' });
    });
    const r = await client.POST('/freebet/create', {
      body: { player_id: 'p', currency_code: 'EUR', amount: '5', conditions: [], idempotence_id: 'k1' },
    });
    expect(r.response.status).toBe(201);
    const posts = seen.filter((s) => s.url === '/freebet/create');
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.body)).size).toBe(1);
  });

  it('retries a creation after a dropped connection under the idempotence_id it generated', async () => {
    const token = tokens();
    const { client, seen } = await fake((req, _body, res) => {
      if (req.url === '/oauth/token') return token(res);
      if (seen.filter((s) => s.url === req.url).length === 1) return req.socket.destroy();
      return json(res, 201, { id: 'x' });
    });
    const freebet = { player_id: 'p', currency_code: 'EUR', amount: '5', conditions: [] };
    const r = await client.POST('/freebet/create', { body: freebet });
    expect(r.response.status).toBe(201);
    const posts = seen.filter((s) => s.url === '/freebet/create').map((s) => JSON.parse(s.body));
    expect(posts).toHaveLength(2);
    expect(posts[0].idempotence_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(posts[1]).toEqual({ ...freebet, idempotence_id: posts[0].idempotence_id });

    // a boost after a dropped connection, with the caller's own id kept; bulk items each get one
    const boost = { multiplier: '1.1', quantity: 1, idempotence_id: 'boost-1' };
    expect((await client.POST('/bet-boosts', { body: boost as never })).response.status).toBe(201);
    const boosts = seen.filter((s) => s.url === '/bet-boosts').map((s) => JSON.parse(s.body));
    expect(boosts).toEqual([boost, boost]);
    await client.POST('/freebet/create/bulk', { body: { items: [freebet, freebet] } });
    const bulk = seen.filter((s) => s.url === '/freebet/create/bulk').map((s) => JSON.parse(s.body));
    expect(bulk).toHaveLength(2);
    const ids = bulk[0].items.map((i: { idempotence_id: string }) => i.idempotence_id);
    expect(new Set(ids).size).toBe(2);
    expect(bulk[1]).toEqual(bulk[0]);
  });

  it('sends a POST that is not safe to repeat once, whether it meets a 503 or a dropped connection', async () => {
    const token = tokens();
    let drop = false;
    const { client, seen } = await fake((req, _body, res) => {
      if (req.url === '/oauth/token') return token(res);
      if (drop) return req.socket.destroy();
      return json(res, 503, { error: { code: 'unavailable', message: 'busy', details: {} } });
    });
    const created = await client.POST('/token/create', {
      body: { player_id: 'player-42', currency: 'EUR', locale: 'en' },
    });
    expect(created.response.status).toBe(503);
    expect(created.error).toMatchObject({ error: { code: 'unavailable' } });
    expect(seen.filter((s) => s.url === '/token/create')).toHaveLength(1);
    drop = true;
    await expect(client.POST('/freebet/cancel', { body: { id: 'fb-1' } })).rejects.toThrow();
    expect(seen.filter((s) => s.url === '/freebet/cancel')).toHaveLength(1);
    // a GET is safe to repeat: retried until the retries run out
    await expect(client.GET('/white-label')).rejects.toThrow();
    expect(seen.filter((s) => s.url === '/white-label')).toHaveLength(4);
  });

  it('does not retry a 4xx and returns the Bookie error body', async () => {
    const token = tokens();
    const { client, seen } = await fake((req, _body, res) => {
      if (req.url === '/oauth/token') return token(res);
      return json(res, 400, {
        error: { code: 'validation_error', message: 'body.amount: bad', details: {} },
      });
    });
    const r = await client.POST('/freebet/cancel', { body: { id: 'x' } });
    expect(r.response.status).toBe(400);
    expect(r.error).toMatchObject({ error: { code: 'validation_error' } });
    expect(seen.filter((s) => s.url === '/freebet/cancel')).toHaveLength(1);
  });

  it('drops a refused token and calls once more with a new one', async () => {
    const token = tokens();
    const { client, seen } = await fake((req, _body, res) => {
      if (req.url === '/oauth/token') return token(res);
      if (req.headers.authorization === 'Bearer tok-1') return res.writeHead(401).end();
      return json(res, 200, { items: [], next_cursor: null });
    });
    const r = await client.GET('/freebets', { params: { query: { player_id: 'p' } } });
    expect(r.data).toEqual({ items: [], next_cursor: null });
    expect(seen.map((s) => `${s.url} ${s.auth.slice(0, 12)}`)).toEqual([
      '/oauth/token Basic YmtjXz',
      '/freebets?player_id=p Bearer tok-1',
      '/oauth/token Basic YmtjXz',
      '/freebets?player_id=p Bearer tok-2',
    ]);
  });

  it('throws BookieApiError when the credentials are refused', async () => {
    const { client } = await fake((_req, _body, res) =>
      json(res, 401, { error: 'invalid_client', error_description: 'unknown client' }),
    );
    await expect(client.GET('/white-label')).rejects.toMatchObject({ status: 401, code: 'invalid_client' });
  });
});
