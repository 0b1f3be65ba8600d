/**
 * The reference wallet alone, without Bookie: each bet's two signed callbacks (`/bet/place`, then `/bet/accept`, as
 * Bookie sends them) posted straight at the wallet, one player per connection. Shared by the placement bench (its
 * "wallet alone" baseline) and the wallet-callbacks bench.
 */
import { acceptBody, placeBody, prepareCallback } from '@bookie/sdk/callbacks/fixtures';
import { Agent, request } from 'undici';

/** The params of the benches' player sessions, sent as `Foreign-Params`: the wallet books a place only in a currency it is told. */
export const SESSION_PARAMS = { currency: 'EUR' };

/**
 * Posts `total` bets of 1 EUR (place, then accept) at the wallet at `url`, signed with `secret`, each of `players`
 * placing its bets one after another (as many in flight as players), bet ids `${idPrefix}-0`, `${idPrefix}-1`, …
 * (a prefix per run: a warm-up's bets are not placed again). Resolves to bets/s; throws on any answer but 204.
 */
export async function postWalletBets(
  url: string,
  secret: string,
  players: readonly string[],
  o: { total: number; idPrefix: string },
): Promise<number> {
  const agent = new Agent({ connections: players.length });
  const post = async (name: 'place' | 'accept', body: ReturnType<typeof placeBody>) => {
    const p = prepareCallback(name, body, { secret, foreignParams: SESSION_PARAMS });
    const res = await request(`${url}${p.path}`, {
      method: 'POST',
      headers: p.headers,
      body: p.body,
      dispatcher: agent,
    });
    const text = await res.body.text();
    if (res.statusCode !== 204) throw new Error(`wallet answered ${name} ${res.statusCode} ${text}`);
  };
  let next = 0;
  const start = performance.now();
  await Promise.all(
    players.map(async (player) => {
      while (next < o.total) {
        const bet = { bet_id: `${o.idPrefix}-${next++}`, bet_player_id: player, bet_stake: '1.000000' };
        await post('place', placeBody(bet));
        await post('accept', acceptBody(bet));
      }
    }),
  );
  await agent.close();
  return (o.total * 1000) / (performance.now() - start);
}
