import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A callback request the scripted partner received. */
export interface ReceivedCallback {
  path: string;
  body: string;
  json: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

/** What the partner answers: a status, an optional JSON body, an optional delay. */
export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  delayMs?: number;
}

/**
 * A minimal partner callback server for tests of Bookie's side of the contract: it records every request and
 * answers as the test's `answer` function says (default 204). For the real partner, see packages/wallet.
 */
export async function scriptedPartner(
  answer: (r: ReceivedCallback) => ScriptedAnswer = () => ({ status: 204 }),
) {
  const received: ReceivedCallback[] = [];
  let script = answer;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      let json: Record<string, unknown> = {};
      try {
        json = body ? JSON.parse(body) : {};
      } catch {
        json = {};
      }
      const r = { path: req.url ?? '', body, json, headers: req.headers };
      received.push(r);
      const a = script(r);
      setTimeout(() => {
        if (a.body === undefined) {
          res.writeHead(a.status);
          res.end();
        } else {
          res.writeHead(a.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(a.body));
        }
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    /** Requests to one path (e.g. `/bet/accept`). */
    at: (path: string) => received.filter((r) => r.path === path),
    setAnswer(fn: (r: ReceivedCallback) => ScriptedAnswer) {
      script = fn;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Waits until `cond` holds (polling every 20 ms), or throws after `ms`. The default bound only catches a hung
 * condition: it sits under the 120 s test timeout, because on a loaded machine conditions take longer.
 */
export async function waitUntil(cond: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 20));
  }
}
