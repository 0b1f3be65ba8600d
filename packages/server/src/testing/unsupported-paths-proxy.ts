import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/**
 * A partner server for tests that implements only some callbacks: it forwards every request byte for byte to a real
 * partner (the reference wallet) except those whose path `refuses` (given as paths, or a test), which it answers 404
 * itself, as a partner without those callbacks does. It counts what it received per path (refused ones too).
 * `answer`, when set, may answer a request itself (a status and a body) instead of forwarding it.
 */
export async function proxyWithout(
  target: string,
  refuses: readonly string[] | ((path: string) => boolean),
): Promise<{
  url: string;
  received: Map<string, number>;
  answer: ((path: string, body: string) => { status: number; body: string } | undefined) | undefined;
  close: () => Promise<void>;
}> {
  const refused = typeof refuses === 'function' ? refuses : (path: string) => refuses.includes(path);
  const received = new Map<string, number>();
  const base = target.replace(/\/+$/, '');
  const proxy: Awaited<ReturnType<typeof proxyWithout>> = {
    url: '',
    received,
    answer: undefined,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const bare = path.split('?')[0] ?? path;
      received.set(bare, (received.get(bare) ?? 0) + 1);
      if (refused(bare)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"not_found"}}');
        return;
      }
      const own = proxy.answer?.(bare, Buffer.concat(chunks).toString('utf8'));
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' });
        res.end(own.body);
        return;
      }
      const headers: IncomingHttpHeaders = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      delete headers['content-length'];
      request(`${base}${path}`, {
        method: (req.method ?? 'POST') as 'POST',
        headers: headers as Record<string, string>,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
      })
        .then(async (r) => {
          const body = Buffer.from(await r.body.arrayBuffer());
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(r.headers)) {
            if (typeof v === 'string' && !['connection', 'transfer-encoding', 'keep-alive'].includes(k))
              out[k] = v;
          }
          res.writeHead(r.statusCode, out);
          res.end(body);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
