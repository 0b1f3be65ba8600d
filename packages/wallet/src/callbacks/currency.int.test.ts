import { randomUUID } from 'node:crypto';
import { placeBody, settleBody } from '@bookie/sdk/callbacks/fixtures';
import { describe, expect, it } from 'vitest';
import { sendCallback } from '../testing/send-callback.js';
import { useTestWallet } from '../testing/use-test-wallet.js';

// as `bookie-wallet start` runs by default: no currency declared
const w = useTestWallet({ defaultCurrency: null });

describe('the wallet never guesses a currency', () => {
  it('refuses a /bet/place whose Foreign-Params name no currency with a final code, holding nothing', async () => {
    const player = `p-${randomUUID()}`;
    await w.api.deposit(player, '50', 'EUR');
    await w.api.deposit(player, '50', 'USD');
    const body = placeBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, bet_stake: '10' });

    const refused = await sendCallback(w.url, 'place', body, { foreignParams: { player } });
    expect(refused.status).toBe(400);
    const error = JSON.parse(refused.body).error;
    expect(error.code).toBe('auth_session_unknown');
    expect(error.data.reason).toBe('currency_unknown');
    // final: the replay gets the same bytes, and no currency moved
    const replay = await sendCallback(w.url, 'place', body, { foreignParams: { player } });
    expect([replay.status, replay.body]).toEqual([refused.status, refused.body]);
    expect(await w.api.balance(player, 'EUR')).toEqual({ available: '50.000000', held: '0.000000' });
    expect(await w.api.balance(player, 'USD')).toEqual({ available: '50.000000', held: '0.000000' });
  });

  it("books a /bet/place in the session's currency from Foreign-Params", async () => {
    const player = `p-${randomUUID()}`;
    await w.api.deposit(player, '50', 'EUR');
    await w.api.deposit(player, '50', 'USD');
    const body = placeBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, bet_stake: '10' });

    const placed = await sendCallback(w.url, 'place', body, { foreignParams: { currency: 'USD' } });
    expect(placed.status).toBeLessThan(300);
    expect(await w.api.balance(player, 'USD')).toEqual({ available: '40.000000', held: '10.000000' });
    expect(await w.api.balance(player, 'EUR')).toEqual({ available: '50.000000', held: '0.000000' });
  });

  it('refuses a settle of a reported bet it cannot book (no currency) transiently, then books it once one is named', async () => {
    const player = `p-${randomUUID()}`;
    const body = settleBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, settle_amount: '12' });
    const refused = await sendCallback(w.url, 'settle', body);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toEqual({
      code: 'bet_unknown',
      data: { bet_id: body.bet_id, reason: 'currency_unknown' },
    });
    expect((await w.api.balances(player)).balances).toEqual([]);
    // transient, not stored: the retry is decided again (here the session now names the currency)
    const booked = await sendCallback(w.url, 'settle', body, { foreignParams: { currency: 'USD' } });
    expect(booked.status).toBe(204);
    expect(await w.api.balance(player, 'USD')).toEqual({ available: '12.000000', held: '0.000000' });
    expect((await w.api.checkLedger(player)).ok).toBe(true);
  });
});
