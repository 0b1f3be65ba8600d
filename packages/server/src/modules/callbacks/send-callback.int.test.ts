import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackSender, type CallbackTarget } from './send-callback.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A partner that reads each request and never answers it; `received` lists what arrived. */
async function silentPartner() {
  const received: IncomingMessage[] = [];
  const server = createServer((req) => {
    req.resume();
    received.push(req);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('CallbackSender', () => {
  it("ends an attempt at its own timeout, well before the agent's, as a failure with no status", async () => {
    const partner = await silentPartner();
    // the agent would wait a minute for the answer's head; only the attempt's deadline (300 ms) can end it sooner
    const sender = new CallbackSender({ timeoutMs: 60_000 });
    closers.push(() => sender.close());
    const target: CallbackTarget = { url: partner.url, sign: () => ({}) };
    const result = await sender.send(
      target,
      { requestId: 'r-1', path: '/bet/place', body: '{}', foreignParams: '{}' },
      300,
    );
    expect(partner.received).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, status: null, body: null });
    expect(result.ok === false && result.error).toMatch(/TimeoutError|timeout/);
  });
});

describe('CallbackSender answers', () => {
  /** A partner answering every request with `status` and `body`; `received` lists each request's head and body. */
  async function answeringPartner(status: number, body: string) {
    const received: Array<{
      url: string;
      headers: IncomingMessage['headers'];
      rawHeaders: string[];
      body: string;
    }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
  }

  it('sends the exact body with the D7 headers, then the signature headers, in that order', async () => {
    const partner = await answeringPartner(204, '');
    const sender = new CallbackSender({ timeoutMs: 5000 });
    closers.push(() => sender.close());
    const body = '{"request_id":"r-2","amount":"1.500000","é":"ü"}';
    const result = await sender.send(
      { url: `${partner.url}/callbacks/`, sign: (id) => ({ 'webhook-id': id, 'webhook-signature': 'v1,x' }) },
      { requestId: 'r-2', path: '/bet/place', body, foreignParams: '{"session":"s"}' },
    );
    expect(result).toEqual({ ok: true, status: 204 });
    const [got] = partner.received;
    expect(got?.url).toBe('/callbacks/bet/place');
    expect(got?.body).toBe(body);
    const names = (got?.rawHeaders ?? []).filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
    expect(names).toEqual([
      'host',
      'connection',
      'content-type',
      'accept',
      'foreign-params',
      'webhook-id',
      'webhook-signature',
      'content-length',
    ]);
    expect(got?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got?.headers['foreign-params']).toBe('{"session":"s"}');
  });

  it('keeps the body of an answer that is not 2xx, and fails a URL that does not parse', async () => {
    const partner = await answeringPartner(409, '{"error":{"code":"insufficient_funds"}}');
    const sender = new CallbackSender({ timeoutMs: 5000 });
    closers.push(() => sender.close());
    const cb = { requestId: 'r-3', path: '/bet/place', body: '{}', foreignParams: '{}' };
    expect(await sender.send({ url: partner.url, sign: () => ({}) }, cb)).toEqual({
      ok: false,
      status: 409,
      error: 'HTTP 409: {"error":{"code":"insufficient_funds"}}',
      body: '{"error":{"code":"insufficient_funds"}}',
    });
    const bad = await sender.send({ url: 'not a url', sign: () => ({}) }, cb);
    expect(bad).toMatchObject({ ok: false, status: null, body: null });
  });
});
