/**
 * The bare HTTP chain the placement benchmark compares against: the same shape as placing a bet, without Bookie.
 * `node --import tsx bench/bare-chain.ts wallet [dbUrl]` answers 204 to every POST; `… server <walletUrl> [dbUrl]`
 * answers each POST by calling the wallet synchronously (the hold), replying, then calling it again in the
 * background (the accept). Each prints `listening on <url>`.
 *
 * With `dbUrl` (a Postgres database), the chain is durable, as a sportsbook's must be: the server INSERTs the bet
 * before the hold and UPDATEs it after (two autocommits, before it answers), and the wallet INSERTs one row per
 * callback (one autocommit each): four durable commits per bet, one statement each, nothing batched by the program
 * (Postgres's own WAL flush still groups concurrent commits).
 *
 * `… authed <token> <dbUrl>` is the baseline of a partner REST call: it refuses (401) a request without
 * `authorization: Bearer <token>`, INSERTs the body (one durable autocommit) and answers 201.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Agent, request } from 'undici';

const [role, ...rest] = process.argv.slice(2);
const walletUrl = role === 'server' ? rest[0] : undefined;
const authToken = role === 'authed' ? rest[0] : undefined;
const dbUrl = role === 'server' || role === 'authed' ? rest[1] : rest[0];
const agent = new Agent({ connections: 128 });
const pool = dbUrl ? new pg.Pool({ connectionString: dbUrl, max: 20 }) : undefined;
const table = `bare_${role}`;
if (pool) {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${table} (id bigserial PRIMARY KEY, body text NOT NULL, state text NOT NULL DEFAULT 'held', at timestamptz NOT NULL DEFAULT now())`,
  );
}

const post = (path: string, body: string) =>
  request(`${walletUrl}${path}`, {
    method: 'POST',
    body,
    dispatcher: agent,
    headers: { 'content-type': 'application/json' },
  });

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', async () => {
    if (role === 'authed') {
      if (req.headers.authorization !== `Bearer ${authToken}`) {
        res.writeHead(401);
        res.end();
        return;
      }
      await pool?.query(`INSERT INTO ${table} (body) VALUES ($1)`, [body]);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(body);
      return;
    }
    if (role === 'wallet') {
      await pool?.query(`INSERT INTO ${table} (body) VALUES ($1)`, [body]);
      res.writeHead(204);
      res.end();
      return;
    }
    const bet = await pool?.query<{ id: string }>(`INSERT INTO ${table} (body) VALUES ($1) RETURNING id`, [
      body,
    ]);
    const hold = await post('/bet/place', body);
    await hold.body.dump();
    if (bet) await pool?.query(`UPDATE ${table} SET state = 'accepted' WHERE id = $1`, [bet.rows[0]?.id]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 1 }));
    post('/bet/accept', body)
      .then((r) => r.body.dump())
      .catch(() => {});
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
