import { randomUUID } from 'node:crypto';
import type { CallbackBodies, CallbackName } from '@bookie/contracts';
import { generateSigningSecret } from '@bookie/sdk';
import { acceptBody, declineBody, placeBody, settleBody, unsettleBody } from '@bookie/sdk/callbacks/fixtures';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { WalletDB } from '../db/schema.js';
import { checkLedger } from '../ledger/invariant.js';
import { sendCallback } from '../testing/send-callback.js';
import { useTestWallet } from '../testing/use-test-wallet.js';

const secret = generateSigningSecret();
/** What the wallet ran on its database: transactions begun and statements run outside of one. */
const counts = { transactions: 0, statements: 0 };

/** The wallet's database handle, counting `transaction()` and the statements run on it directly. */
function counting(db: Kysely<WalletDB>): Kysely<WalletDB> {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'transaction' || prop === 'executeQuery') {
        return (...args: unknown[]) => {
          counts[prop === 'transaction' ? 'transactions' : 'statements']++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const w = useTestWallet({ secret, wrapDb: counting });
afterEach(async () => {
  const check = await checkLedger(w.database.db);
  expect(check.ok, JSON.stringify(check.accounts)).toBe(true);
});

function send<K extends CallbackName>(name: K, body: CallbackBodies[K]) {
  return sendCallback(w.url, name, body, { secret });
}

/** Sends a callback and returns its status and what it cost on the database. */
async function measured<K extends CallbackName>(name: K, body: CallbackBodies[K]) {
  counts.transactions = counts.statements = 0;
  const res = await send(name, body);
  return { status: res.status, ...counts };
}

describe('wallet bet callbacks: one statement each (docs/adr/0013-wallet-round-trips.md)', () => {
  it('place, accept, settle, unsettle and decline cost one statement and no transaction; a replay one', async () => {
    const player = `p-${randomUUID()}`;
    await w.api.deposit(player, '100.000000');
    const ref = { bet_id: `b-${randomUUID()}`, bet_player_id: player };
    const one = { transactions: 0, statements: 1 };
    const place = placeBody({ ...ref, bet_stake: '10.000000' });
    expect(await measured('place', place)).toEqual({ status: 204, ...one });
    expect(await measured('place', place)).toEqual({ status: 204, ...one }); // the replay
    expect(await measured('accept', acceptBody(ref))).toEqual({ status: 204, ...one });
    expect(await measured('settle', settleBody({ ...ref, settle_amount: '20.000000' }))).toEqual({
      status: 204,
      ...one,
    });
    expect(await measured('unsettle', unsettleBody({ ...ref, unsettle_amount: '20.000000' }))).toEqual({
      status: 204,
      ...one,
    });
    const declined = { bet_id: `b-${randomUUID()}`, bet_player_id: player };
    await send('place', placeBody({ ...declined, bet_stake: '10.000000' }));
    expect(await measured('decline', declineBody(declined))).toEqual({ status: 204, ...one });
    expect(await measured('accept', acceptBody({ bet_id: `b-${randomUUID()}` }))).toEqual({
      status: 400,
      ...one,
    });
    // a stored refusal: the statement, then the answer
    expect(
      await measured('place', placeBody({ ...ref, bet_id: `b-${randomUUID()}`, bet_stake: '1000.000000' })),
    ).toEqual({
      status: 400,
      transactions: 0,
      statements: 2,
    });
    expect(await w.api.balance(player)).toEqual({ available: '90.000000', held: '0.000000' });
  });

  it('never overdraws under concurrent places of one player, and applies concurrent duplicates once', async () => {
    const player = `p-${randomUUID()}`;
    await w.api.deposit(player, '50.000000');
    const places = Array.from({ length: 12 }, () =>
      placeBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, bet_stake: '10.000000' }),
    );
    const answers = await Promise.all(places.flatMap((b) => [send('place', b), send('place', b)]));
    const held = answers.filter((a, i) => i % 2 === 0 && a.status === 204).length;
    expect(held).toBe(5);
    for (let i = 0; i < answers.length; i += 2) {
      expect([answers[i + 1]!.status, answers[i + 1]!.body]).toEqual([answers[i]!.status, answers[i]!.body]);
    }
    expect(await w.api.balance(player)).toEqual({ available: '0.000000', held: '50.000000' });
    const won = places.filter((_, i) => answers[2 * i]!.status === 204);
    await Promise.all(won.map((b) => send('accept', acceptBody({ bet_id: b.bet_id }))));
    const settles = won.map((b) => settleBody({ bet_id: b.bet_id, settle_amount: '15.000000' }));
    await Promise.all(settles.flatMap((b) => [send('settle', b), send('settle', b)]));
    expect(await w.api.balance(player)).toEqual({ available: '75.000000', held: '0.000000' });
  });
});
