import { generateSigningSecret } from '@bookie/sdk';
import { acceptBody, placeBody } from '@bookie/sdk/callbacks/fixtures';
import { describe, expect, it } from 'vitest';
import { type CallbackAnswer, sendCallback } from '../testing/send-callback.js';
import { useTestWallet } from '../testing/use-test-wallet.js';

const secret = generateSigningSecret();
/** The size of each transaction the callbacks' statements ran in. */
const flushes: number[] = [];
const w = useTestWallet({ secret, onStatementFlush: (n) => flushes.push(n) });

const PLAYERS = ['g-1', 'g-2', 'g-3', 'g-4', 'g-5', 'g-6'];
/** Each player's places: 110 in all against a deposit of 100, so exactly one of them is short, whichever runs last. */
const STAKES = ['30.000000', '30.000000', '30.000000', '20.000000'];

const places = PLAYERS.flatMap((player) =>
  STAKES.map((stake, i) =>
    placeBody({ bet_id: `${player}-bet-${i}`, bet_player_id: player, bet_stake: stake }),
  ),
);

function answers(list: CallbackAnswer[]) {
  return list.map((a) => ({ status: a.status, type: a.headers.get('content-type'), body: a.body }));
}

describe('callbacks arriving together (group commit)', () => {
  it('each is answered as alone, a repeat answers its stored bytes, and the ledger balances', async () => {
    for (const p of PLAYERS) await w.api.deposit(p, '100.000000');
    flushes.length = 0;
    const first = answers(await Promise.all(places.map((b) => sendCallback(w.url, 'place', b, { secret }))));
    // every statement ran once, alone or with others (a short place's refusal is stored by a statement of its own)
    const refused = first.filter((a) => a.status === 400);
    expect(flushes.reduce((a, b) => a + b, 0)).toBe(places.length + refused.length);
    for (const [i, p] of PLAYERS.entries()) {
      const own = first.slice(i * STAKES.length, (i + 1) * STAKES.length);
      expect(own.filter((a) => a.status === 204)).toHaveLength(STAKES.length - 1);
      const [short] = own.filter((a) => a.status === 400);
      expect(JSON.parse(short?.body ?? '{}')).toMatchObject({ error: { code: 'not_enough_balance' } });
      const b = await w.api.balance(p);
      expect(BigInt(b.available.replace('.', '')) + BigInt(b.held.replace('.', ''))).toBe(100_000_000n);
    }
    // the same requests again, together: the stored answers, byte for byte
    const again = answers(await Promise.all(places.map((b) => sendCallback(w.url, 'place', b, { secret }))));
    expect(again).toEqual(first);
    // the held bets accepted together, then the ledger of every player balances
    const held = places.filter((_, i) => first[i]?.status === 204);
    const accepted = await Promise.all(
      held.map((b) => sendCallback(w.url, 'accept', acceptBody({ bet_id: b.bet_id }), { secret })),
    );
    expect(accepted.map((a) => a.status)).toEqual(held.map(() => 204));
    for (const p of PLAYERS) {
      expect((await w.api.balance(p)).held).toBe('0.000000');
      const check = await w.api.checkLedger(p);
      expect(check.ok, JSON.stringify(check.accounts)).toBe(true);
    }
  });
});
