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
