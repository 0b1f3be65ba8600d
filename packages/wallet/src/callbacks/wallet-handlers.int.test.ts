import { randomUUID } from 'node:crypto';
import type { CallbackBodies, CallbackName } from '@bookie/contracts';
import { generateSigningSecret } from '@bookie/sdk';
import {
  acceptBody,
  cashOutAcceptedBody,
  cashOutDeclinedBody,
  declineBody,
  insuranceAcceptedBody,
  insuranceDeclinedBody,
  placeBody,
  settleBody,
  unsettleBody,
} from '@bookie/sdk/callbacks/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { sendCallback } from '../testing/send-callback.js';
import { useTestWallet } from '../testing/use-test-wallet.js';

const secret = generateSigningSecret();
const w = useTestWallet({ secret });
afterEach(async () => {
  const check = await w.api.checkLedger();
  expect(check.ok, JSON.stringify(check.accounts)).toBe(true);
});

function send<K extends CallbackName>(
  name: K,
  body: CallbackBodies[K],
  foreignParams?: Record<string, unknown>,
) {
  return sendCallback(w.url, name, body, { secret, foreignParams });
}

function ids() {
  return { player: `p-${randomUUID()}`, bet: `b-${randomUUID()}` };
}

async function bal(player: string, currency = 'EUR') {
  return w.api.balance(player, currency);
}

describe('wallet callbacks: money movements', () => {
  it('place holds, accept captures, settle credits, unsettle debits, settle again credits the new amount', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '100.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    expect((await send('place', placeBody({ ...ref, bet_stake: '10.000000' }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '90.000000', held: '10.000000' });
    expect((await send('accept', acceptBody({ ...ref, bet_stake: '10.000000' }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '90.000000', held: '0.000000' });
    expect((await send('settle', settleBody({ ...ref, settle_amount: '18.500000' }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '108.500000', held: '0.000000' });
    expect((await send('unsettle', unsettleBody({ ...ref, unsettle_amount: '18.500000' }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '90.000000', held: '0.000000' });
    const lost = settleBody({ ...ref, settle_amount: '0.000000', settle_type: 3 });
    expect((await send('settle', lost)).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '90.000000', held: '0.000000' });
    const kinds = (await w.api.ledger(player)).entries.map((e) => `${e.kind}:${e.reason}:${e.amount}`);
    expect(kinds).toEqual([
      'deposit:deposit:100.000000',
      'hold:place:10.000000',
      'capture:accept:10.000000',
      'credit:settle:18.500000',
      'debit:unsettle:18.500000',
    ]);
  });

  it('deposits once per reference', async () => {
    const { player } = ids();
    expect(await w.api.deposit(player, '5.000000', 'EUR', 'ref-1')).toMatchObject({ applied: true });
    expect(await w.api.deposit(player, '5.000000', 'EUR', 'ref-1')).toMatchObject({ applied: false });
    expect(await bal(player)).toEqual({ available: '5.000000', held: '0.000000' });
  });

  it('decline releases the hold', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '20.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    await send('place', placeBody({ ...ref, bet_stake: '15.000000' }));
    expect(await bal(player)).toEqual({ available: '5.000000', held: '15.000000' });
    expect((await send('decline', declineBody(ref))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '20.000000', held: '0.000000' });
  });

  it('rejects a short place with not_enough_balance and actual_balance, final and replayed (D9)', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '4.500000');
    const body = placeBody({ bet_id: bet, bet_player_id: player, bet_stake: '5.000000' });
    const first = await send('place', body);
    expect(first.status).toBe(400);
    expect(first.body).toBe('{"error":{"code":"not_enough_balance","data":{"actual_balance":"4.500000"}}}');
    await w.api.deposit(player, '100.000000');
    const again = await send('place', body);
    expect([again.status, again.body]).toEqual([400, first.body]);
    expect(await bal(player)).toEqual({ available: '104.500000', held: '0.000000' });
    const unknown = await send(
      'place',
      placeBody({ bet_player_id: `p-${randomUUID()}`, bet_stake: '1.000000' }),
    );
    expect(JSON.parse(unknown.body).error.data.actual_balance).toBe('0.000000');
  });

  it('holds nothing for a freebet bet and credits its winnings', async () => {
    const { player, bet } = ids();
    const ref = { bet_id: bet, bet_player_id: player };
    expect(
      (await send('place', placeBody({ ...ref, bet_freebet_id: 'fb-1', bet_stake: '5.000000' }))).status,
    ).toBe(204);
    expect((await send('accept', acceptBody({ ...ref, bet_freebet_id: 'fb-1' }))).status).toBe(204);
    expect((await send('settle', settleBody({ ...ref, settle_amount: '4.250000' }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '4.250000', held: '0.000000' });
  });

  it('credits insurance and cash-out once per insurance and order, even under new request ids', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    await send('place', placeBody({ ...ref, bet_stake: '10.000000' }));
    await send('accept', acceptBody(ref));
    const co = cashOutAcceptedBody({ bet_id: bet, cash_out_order_id: 'o-1', refund_amount: '7.000000' });
    expect((await send('cashOutAccepted', co)).status).toBe(204);
    expect((await send('cashOutAccepted', { ...co, request_id: randomUUID() })).status).toBe(204);
    expect((await send('cashOutDeclined', cashOutDeclinedBody({ bet_id: bet }))).status).toBe(204);
    await send('settle', settleBody({ ...ref, settle_amount: '0.000000', settle_type: 3 }));
    const ins = insuranceAcceptedBody({ bet_id: bet, refund_amount: '2.500000' });
    expect((await send('insuranceAccepted', ins)).status).toBe(204);
    expect((await send('insuranceAccepted', { ...ins, request_id: randomUUID() })).status).toBe(204);
    expect((await send('insuranceDeclined', insuranceDeclinedBody({ bet_id: bet }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '9.500000', held: '0.000000' });
  });

  it('takes a cash-out payment back once when the order is declined afterwards; unknown orders move nothing', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    await send('place', placeBody({ ...ref, bet_stake: '10.000000' }));
    await send('accept', acceptBody(ref));
    await send(
      'cashOutAccepted',
      cashOutAcceptedBody({ bet_id: bet, cash_out_order_id: 'p-1', refund_amount: '3.125000' }),
    );
    expect(await bal(player)).toEqual({ available: '3.125000', held: '0.000000' });
    const declined = cashOutDeclinedBody({ bet_id: bet, cash_out_order_ids: ['p-1', 'never-paid'] });
    expect((await send('cashOutDeclined', declined)).status).toBe(204);
    expect((await send('cashOutDeclined', { ...declined, request_id: randomUUID() })).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '0.000000', held: '0.000000' });
    expect((await w.api.checkLedger(player)).ok).toBe(true);
  });

  it('takes a paid insurance back on /bet/insurances/cancel and pays it again in the next cycle (ADR 0009)', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    await send('place', placeBody({ ...ref, bet_stake: '10.000000' }));
    await send('accept', acceptBody(ref));
    await send('settle', settleBody({ ...ref, settle_amount: '0.000000', settle_type: 3 }));
    const ins = insuranceAcceptedBody({ bet_id: bet, bet_insurance_id: 'ins-1', refund_amount: '4.000000' });
    const cancel = {
      request_id: randomUUID(),
      bet_id: bet,
      bet_insurance_id: 'ins-1',
      refund_amount: '4.000000',
    };
    expect((await send('insuranceAccepted', ins)).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '4.000000', held: '0.000000' });
    await send('unsettle', unsettleBody({ ...ref, unsettle_amount: '0.000000' }));
    expect((await send('insuranceCancel', cancel)).status).toBe(204);
    expect((await send('insuranceCancel', cancel)).status).toBe(204); // a retry: replayed
    expect((await send('insuranceCancel', { ...cancel, request_id: randomUUID() })).status).toBe(204); // known
    expect(await bal(player)).toEqual({ available: '0.000000', held: '0.000000' });
    // the bet settles lost again: the insurance pays again (a new cycle), once
    await send('settle', settleBody({ ...ref, settle_amount: '0.000000', settle_type: 3 }));
    const again = { ...ins, request_id: randomUUID(), refund_amount: '3.500000' };
    expect((await send('insuranceAccepted', again)).status).toBe(204);
    expect((await send('insuranceAccepted', { ...again, request_id: randomUUID() })).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '3.500000', held: '0.000000' });
    const ledger = (await w.api.ledger(player)).entries.filter((e) => e.reason.startsWith('insurance'));
    expect(ledger.map((e) => [e.kind, e.amount, e.ref])).toEqual([
      ['credit', '4.000000', 'ins-1'],
      ['debit', '4.000000', 'ins-1'],
      ['credit', '3.500000', 'ins-1#1'],
    ]);
  });

  it('refuses callbacks for unknown bets transiently, so the retry succeeds once the bet is known', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    const accept = acceptBody(ref);
    const early = await send('accept', accept);
    expect(early.status).toBe(400);
    expect(JSON.parse(early.body).error).toEqual({ code: 'bet_unknown', data: { bet_id: bet } });
    for (const [name, body] of [
      ['unsettle', unsettleBody(ref)],
      ['insuranceAccepted', insuranceAcceptedBody({ bet_id: bet })],
      ['cashOutAccepted', cashOutAcceptedBody({ bet_id: bet })],
    ] as const) {
      expect((await send(name, body as never)).status, name).toBe(400);
    }
    await send('place', placeBody({ ...ref, bet_stake: '10.000000' }));
    expect((await send('accept', accept)).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '0.000000', held: '0.000000' });
  });

  it('keeps a tombstone for a decline of an unknown bet: a late place holds nothing', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    expect((await send('decline', declineBody(ref))).status).toBe(204);
    expect((await send('place', placeBody({ ...ref, bet_stake: '10.000000' }))).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '10.000000', held: '0.000000' });
  });

  it('finds a declined bet by bet_id when the decline names no player; an unknown one answers 204', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '20.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    await send('place', placeBody({ ...ref, bet_stake: '15.000000' }));
    const { bet_player_id: _, ...bare } = declineBody(ref);
    const declined = await send('decline', bare as never);
    expect([declined.status, declined.body]).toEqual([204, '']);
    expect(await bal(player)).toEqual({ available: '20.000000', held: '0.000000' });
    expect((await send('decline', bare as never)).status).toBe(204); // a retry: replayed
    expect((await send('decline', { ...bare, request_id: randomUUID() } as never)).status).toBe(204); // known
    expect(await bal(player)).toEqual({ available: '20.000000', held: '0.000000' });

    // a bet the wallet never saw, named by bet_id alone: 204, and its late place holds nothing
    const unknown = `b-${randomUUID()}`;
    const tomb = await send('decline', {
      request_id: randomUUID(),
      bet_id: unknown,
      restrictions: [],
    } as never);
    expect([tomb.status, tomb.body]).toEqual([204, '']);
    const late = await send(
      'place',
      placeBody({ bet_id: unknown, bet_player_id: player, bet_stake: '5.000000' }),
    );
    expect(late.status).toBe(204);
    expect(await bal(player)).toEqual({ available: '20.000000', held: '0.000000' });
  });

  it('credits and debits a reported bet it never held: settle pays, unsettle takes back, once per movement', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000', 'USD');
    const ref = { bet_id: bet, bet_player_id: player };
    const usd = { currency: 'USD' };
    const won = settleBody({ ...ref, settle_amount: '25.500000' });
    expect((await send('settle', won, usd)).status).toBe(204);
    expect(await bal(player, 'USD')).toEqual({ available: '35.500000', held: '0.000000' });
    // a retry replays; the same settle under a new request id is known: nothing moves twice
    expect((await send('settle', won, usd)).status).toBe(204);
    expect((await send('settle', { ...won, request_id: randomUUID() }, usd)).status).toBe(204);
    expect(await bal(player, 'USD')).toEqual({ available: '35.500000', held: '0.000000' });

    const unsettle = unsettleBody({ ...ref, unsettle_amount: '25.500000' });
    expect((await send('unsettle', unsettle, usd)).status).toBe(204);
    expect((await send('unsettle', unsettle, usd)).status).toBe(204);
    expect((await send('unsettle', { ...unsettle, request_id: randomUUID() }, usd)).status).toBe(204);
    expect(await bal(player, 'USD')).toEqual({ available: '10.000000', held: '0.000000' });

    // settled again, as a loss then corrected to a refund of the stake
    expect(
      (await send('settle', settleBody({ ...ref, settle_amount: '0.000000', settle_type: 3 }), usd)).status,
    ).toBe(204);
    expect((await send('unsettle', unsettleBody({ ...ref, unsettle_amount: '0.000000' }), usd)).status).toBe(
      204,
    );
    expect(
      (await send('settle', settleBody({ ...ref, settle_amount: '4.000000', settle_type: 2 }), usd)).status,
    ).toBe(204);
    expect(await bal(player, 'USD')).toEqual({ available: '14.000000', held: '0.000000' });
    expect((await w.api.balances(player)).balances.map((b) => b.currency)).toEqual(['USD']);
    const ledger = (await w.api.ledger(player)).entries.map(
      (e) => `${e.kind}:${e.reason}:${e.amount}:${e.bet_id}`,
    );
    expect(ledger).toEqual([
      'deposit:deposit:10.000000:null',
      `credit:settle:25.500000:${bet}`,
      `debit:unsettle:25.500000:${bet}`,
      `credit:settle:4.000000:${bet}`,
    ]);
    // a reported bet was never held: a decline of it is a conflict and moves nothing
    expect((await send('decline', declineBody(ref))).status).toBe(400);
    expect(await bal(player, 'USD')).toEqual({ available: '14.000000', held: '0.000000' });
  });

  it('books a reported bet to the player of Foreign-Params when the settle names none', async () => {
    const { player, bet } = ids();
    const won = settleBody({ bet_id: bet, bet_player_id: '', settle_amount: '3.000000' });
    expect((await send('settle', won, { player_id: player })).status).toBe(204);
    expect(await bal(player)).toEqual({ available: '3.000000', held: '0.000000' });
  });

  it('refuses a settle of a declined bet and an accept after a decline, without moving money', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '10.000000');
    const ref = { bet_id: bet, bet_player_id: player };
    await send('place', placeBody({ ...ref, bet_stake: '10.000000' }));
    await send('decline', declineBody(ref));
    const settle = await send('settle', settleBody(ref));
    expect(settle.status).toBe(400);
    expect(JSON.parse(settle.body).error).toEqual({
      code: 'bet_state_conflict',
      data: { bet_id: bet, state: 'declined' },
    });
    expect((await send('accept', acceptBody(ref))).status).toBe(400);
    expect(await bal(player)).toEqual({ available: '10.000000', held: '0.000000' });
  });

  it('keeps balances per currency, taken from Foreign-Params', async () => {
    const { player, bet } = ids();
    await w.api.deposit(player, '50.000000', 'USD');
    const ref = { bet_id: bet, bet_player_id: player };
    expect(
      (await send('place', placeBody({ ...ref, bet_stake: '20.000000' }), { currency: 'USD' })).status,
    ).toBe(204);
    await send('accept', acceptBody(ref), { currency: 'USD' });
    await send('settle', settleBody({ ...ref, settle_amount: '37.000000' }));
    expect(await bal(player, 'USD')).toEqual({ available: '67.000000', held: '0.000000' });
    expect((await w.api.balances(player)).balances.map((b) => b.currency)).toEqual(['USD']);
  });

  it('answers 401 to an unsigned callback and 409 to a reused request_id with another body', async () => {
    const { player, bet } = ids();
    const body = placeBody({
      bet_id: bet,
      bet_player_id: player,
      bet_stake: '0.000000',
      bet_freebet_id: 'f',
    });
    const unsigned = await sendCallback(w.url, 'place', body);
    expect(unsigned.status).toBe(401);
    expect((await send('place', body)).status).toBe(204);
    expect((await send('place', { ...body, bet_id: `${bet}-x` })).status).toBe(409);
  });
});
