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

/** A request as the partner servers record it: its body also as JSON (`{}` when empty or not JSON). */
function recorded(req: IncomingMessage, body: string): ReceivedCallback {
  let json: Record<string, unknown> = {};
  try {
    json = body ? JSON.parse(body) : {};
  } catch {
    json = {};
  }
  return { path: req.url ?? '', body, json, headers: req.headers };
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
      const r = recorded(req, body);
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

/**
 * A partner callback server in front of another (e.g. the reference wallet): every request is passed on unchanged
 * (method, path, headers with the signature, body) and its answer returned, except where `intercept` answers for
 * the partner — e.g. 404 on the paths of a callback the partner does not implement. Records what it received.
 */
export async function relayPartner(
  target: string,
  intercept: (r: ReceivedCallback) => ScriptedAnswer | undefined,
) {
  const received: ReceivedCallback[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const r = recorded(req, body);
      received.push(r);
      const own = intercept(r);
      if (own) {
        res.writeHead(own.status, own.body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(own.body === undefined ? undefined : JSON.stringify(own.body));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)) headers[k] = v;
      }
      fetch(`${target}${r.path}`, { method: req.method ?? 'POST', headers, body: body || undefined })
        .then(async (answer) => {
          const text = await answer.text();
          const type = answer.headers.get('content-type');
          res.writeHead(answer.status, type ? { 'content-type': type } : {});
          res.end(text);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    /** Requests to one path (e.g. `/bet/cash-out-orders/accepted`). */
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
