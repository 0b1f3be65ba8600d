/**
 * The bare HTTP chain the placement benchmark compares against: the same shape as placing a bet, without Bookie.
 * `node --import tsx bench/bare-chain.ts wallet` answers 204 to every POST; `… server <walletUrl>` answers each
 * POST by calling the wallet synchronously (the hold), replying, then calling it again in the background (the
 * accept). Each prints `listening on <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

const [role, walletUrl] = process.argv.slice(2);
const agent = new Agent({ connections: 128 });

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', async () => {
    if (role === 'wallet') {
      res.writeHead(204);
      res.end();
      return;
    }
    const hold = await request(`${walletUrl}/bet/place`, {
      method: 'POST',
      body,
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
    });
    await hold.body.dump();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 1 }));
    request(`${walletUrl}/bet/accept`, {
      method: 'POST',
      body,
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
    })
      .then((r) => r.body.dump())
      .catch(() => {});
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
