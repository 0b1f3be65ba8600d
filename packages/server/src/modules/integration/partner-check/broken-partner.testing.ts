/**
 * A deliberately broken partner callback server for the partner check's own tests: an in-memory wallet that gets
 * most of the contract right but double-credits a repeated `/bet/settle`, answers 500 to bodies with fields it does
 * not know, refuses its limited player (`limited`) with the wrong code (`not_enough_balance` instead of
 * `player_limit_crossed`), and does not implement cash-out (404). It refuses a place whose `Foreign-Params` name the
 * session `unknown` with `auth_session_unknown`, as it should. It shows its balance like the reference wallet
 * (`GET /players/{id}/balance`).
 *
 * @packageDocumentation
 */
import { createServer, type Server } from 'node:http';
import { CALLBACK_BODIES, CALLBACK_PATHS, type CallbackName } from '@bookie/contracts';
import { add, formatMoney, parseMoney, type Rational, sub, ZERO } from '@bookie/core';

/** A running broken partner. */
export interface BrokenPartner {
  url: string;
  /** Gives a player money. */
  deposit(playerId: string, amount: string): void;
  close(): Promise<void>;
}

const NAME_BY_PATH = new Map(
  Object.entries(CALLBACK_PATHS).map(([name, path]) => [path, name as CallbackName]),
);

function knownFields(name: CallbackName): Set<string> {
  const schema = CALLBACK_BODIES[name] as { properties?: Record<string, unknown> };
  return new Set(Object.keys(schema.properties ?? {}));
}

/** Starts the broken partner on a loopback port. */
export async function startBrokenPartner(): Promise<BrokenPartner> {
  const accounts = new Map<string, { available: Rational; held: Rational }>();
  const bets = new Map<string, { player: string; stake: Rational }>();
  const answers = new Map<string, { status: number; body: string }>();
  const account = (player: string) => {
    let a = accounts.get(player);
    if (!a) {
      a = { available: ZERO, held: ZERO };
      accounts.set(player, a);
    }
    return a;
  };

  const apply = (name: CallbackName, body: Record<string, string>): { status: number; body: string } => {
    switch (name) {
      case 'place': {
        const a = account(body.bet_player_id as string);
        const stake = parseMoney(body.bet_stake, 'bet_stake');
        if (sub(a.available, stake).num < 0n) {
          return {
            status: 400,
            body: JSON.stringify({
              error: { code: 'not_enough_balance', data: { actual_balance: formatMoney(a.available) } },
            }),
          };
        }
        a.available = sub(a.available, stake);
        a.held = add(a.held, stake);
        bets.set(body.bet_id as string, { player: body.bet_player_id as string, stake });
        return { status: 204, body: '' };
      }
      case 'accept': {
        const bet = bets.get(body.bet_id as string);
        if (bet) account(bet.player).held = sub(account(bet.player).held, bet.stake);
        return { status: 204, body: '' };
      }
      case 'decline': {
        const bet = bets.get(body.bet_id as string);
        if (bet) {
          const a = account(bet.player);
          a.held = sub(a.held, bet.stake);
          a.available = add(a.available, bet.stake);
        }
        return { status: 204, body: '' };
      }
      case 'settle':
      case 'unsettle':
      case 'insuranceAccepted': {
        const bet = bets.get(body.bet_id as string);
        if (!bet) return { status: 400, body: '{"error":{"code":"bet_unknown"}}' };
        const a = account(bet.player);
        if (name === 'settle')
          a.available = add(a.available, parseMoney(body.settle_amount, 'settle_amount'));
        if (name === 'unsettle') a.available = sub(a.available, parseMoney(body.unsettle_amount, 'x'));
        if (name === 'insuranceAccepted') a.available = add(a.available, parseMoney(body.refund_amount, 'x'));
        return { status: 204, body: '' };
      }
      default:
        return { status: 204, body: '' };
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const balance = /^\/players\/([^/]+)\/balance$/.exec(url.pathname);
      if (req.method === 'GET' && balance?.[1]) {
        const player = decodeURIComponent(balance[1]);
        const a = account(player);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            player_id: player,
            balances: [{ currency: 'EUR', available: formatMoney(a.available), held: formatMoney(a.held) }],
          }),
        );
        return;
      }
      const name = NAME_BY_PATH.get(url.pathname as never);
      // no cash-out: optional callbacks it does not implement
      if (req.method !== 'POST' || !name || name === 'cashOutAccepted' || name === 'cashOutDeclined') {
        res.writeHead(404).end();
        return;
      }
      if (name === 'heartbeat') {
        res.writeHead(204).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
      const known = knownFields(name);
      // fault: fields it does not know crash it
      if (Object.keys(body).some((k) => !known.has(k))) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":"internal"}}');
        return;
      }
      const session = (JSON.parse(String(req.headers['foreign-params'] ?? '{}')) as { session?: unknown })
        .session;
      if (name === 'place' && session === 'unknown') {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":{"code":"auth_session_unknown"}}');
        return;
      }
      // fault: its limits refuse with the wrong code
      if (name === 'place' && body.bet_player_id === 'limited') {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":{"code":"not_enough_balance","data":{"actual_balance":"0.000000"}}}');
        return;
      }
      const seen = answers.get(body.request_id as string);
      // fault: a repeated settle is applied again instead of answered from the stored answer
      const answer = seen && name !== 'settle' ? seen : apply(name, body);
      answers.set(body.request_id as string, answer);
      res.writeHead(answer.status, answer.body ? { 'content-type': 'application/json' } : {});
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    deposit(player, amount) {
      const a = account(player);
      a.available = add(a.available, parseMoney(amount, 'amount'));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
