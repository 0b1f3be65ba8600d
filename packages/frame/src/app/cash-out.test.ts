import type { BetView, CashOutQuote } from '@bookie/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CashOutDesk, CONCURRENCY, MIN_GAP_MS, neverOffered, POLL_MS, reversedOrder } from './cash-out.js';

const bet = (id: string, over: Partial<BetView> = {}): BetView =>
  ({
    id,
    status: 1,
    bet_type: 'single',
    stake: '10.000000',
    currency: 'EUR',
    selections: [{ sport_event_id: `ev-${id}`, market_id: '1', odd_id: '1', odds: '2.000000' }],
    ...over,
  }) as BetView;

const quote = (amount: string, refund: string, id = 'q'): CashOutQuote => ({
  available: true,
  amount,
  refund_amount: refund,
  remaining_stake: '10.000000',
  quote_id: id,
  expires_at: '2030-01-01T00:00:00.000Z',
});

/** A frame API whose answers the test gives by hand, one request at a time. */
function fakeApi(bets: BetView[]) {
  const calls: { path: string; body: unknown; answer(v: unknown): void; fail(e: Error): void }[] = [];
  const cashedOut: unknown[] = [];
  const host = {
    call<T>(path: string, init?: { body?: unknown }): Promise<T> {
      return new Promise<T>((resolve, reject) =>
        calls.push({ path, body: init?.body, answer: (v) => resolve(v as T), fail: reject }),
      );
    },
    bets: () => bets,
    changed: () => {},
    cashedOut: (_b: BetView, o: unknown) => cashedOut.push(o),
  };
  return { host, calls, cashedOut };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('the cash-out desk', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('quotes open singles and expresses only, at most CONCURRENCY at once', async () => {
    const bets = [
      bet('a'),
      bet('b', { bet_type: 'express' }),
      bet('c'),
      bet('sys', { bet_type: 'system' }),
      bet('won', { status: 3 }),
    ];
    const api = fakeApi(bets);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    expect(api.calls.map((c) => c.path)).toEqual([
      '/frame-api/bets/a/cash-out/calculate',
      '/frame-api/bets/b/cash-out/calculate',
    ]);
    expect(CONCURRENCY).toBe(2);
    api.calls[0]!.answer(quote('10.000000', '13.458000'));
    await settle();
    expect(api.calls.map((c) => c.path).at(-1)).toBe('/frame-api/bets/c/cash-out/calculate');
    expect(desk.of('a').full?.refund_amount).toBe('13.458000');
    desk.stop();
  });

  it('asks one quote per bet at a time however often its odds move, and never within MIN_GAP_MS', async () => {
    const api = fakeApi([bet('a')]);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    expect(api.calls).toHaveLength(1);
    for (let i = 0; i < 50; i++) desk.oddsMoved('ev-a');
    desk.oddsMoved('ev-other');
    expect(api.calls).toHaveLength(1);
    api.calls[0]!.answer(quote('10.000000', '13.000000'));
    await settle();
    // the moves seen while asking make one more request, after the gap
    expect(api.calls).toHaveLength(1);
    vi.advanceTimersByTime(MIN_GAP_MS);
    expect(api.calls).toHaveLength(2);
    api.calls[1]!.answer(quote('10.000000', '12.000000'));
    await settle();
    vi.advanceTimersByTime(MIN_GAP_MS * 2);
    expect(api.calls).toHaveLength(2);
    expect(desk.of('a').full?.refund_amount).toBe('12.000000');
    // and the poll
    vi.advanceTimersByTime(POLL_MS);
    expect(api.calls).toHaveLength(3);
    desk.stop();
    api.calls[2]!.answer(quote('10.000000', '11.000000'));
    await settle();
    vi.advanceTimersByTime(POLL_MS * 3);
    expect(api.calls).toHaveLength(3);
  });

  it('drops a confirmation left open when the screen goes', async () => {
    const api = fakeApi([bet('a')]);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    api.calls[0]!.answer(quote('10.000000', '13.000000'));
    await settle();
    desk.ask('a', 'full');
    expect(desk.of('a').confirming).toBeDefined();
    desk.stop();
    expect(desk.of('a').confirming).toBeUndefined();
    expect(desk.of('a').full?.refund_amount).toBe('13.000000');
  });

  it('keeps the last quote on screen when a refresh fails', async () => {
    const api = fakeApi([bet('a')]);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    api.calls[0]!.answer(quote('10.000000', '13.000000'));
    await settle();
    vi.advanceTimersByTime(POLL_MS);
    api.calls[1]!.fail(new Error('HTTP 502'));
    await settle();
    expect(desk.of('a').full?.refund_amount).toBe('13.000000');
    desk.stop();
  });

  it('places exactly the quote confirmed, holding it still while the player confirms', async () => {
    const api = fakeApi([bet('a')]);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    api.calls[0]!.answer(quote('10.000000', '13.458000', 'signed-1'));
    await settle();
    desk.ask('a', 'full');
    expect(desk.of('a').confirming).toEqual({
      amount: '10.000000',
      refund: '13.458000',
      quoteId: 'signed-1',
      expiresAt: '2030-01-01T00:00:00.000Z',
      full: true,
    });
    vi.advanceTimersByTime(POLL_MS);
    desk.oddsMoved('ev-a');
    // re-quoting waits: a request made now is dropped before it changes what is confirmed
    const before = api.calls.length;
    for (const c of api.calls.slice(1)) c.answer(quote('10.000000', '9.000000', 'other'));
    await settle();
    expect(desk.of('a').confirming?.refund).toBe('13.458000');
    const placing = desk.confirm('a');
    const place = api.calls.at(-1)!;
    expect(api.calls.length).toBe(before + 1);
    expect(place.path).toBe('/frame-api/bets/a/cash-out/place');
    expect(place.body).toEqual({ amount: '10.000000', refund_amount: '13.458000', quote_id: 'signed-1' });
    place.answer({
      order: {
        id: 'o',
        amount: '10.000000',
        refund_amount: '13.458000',
        status: { code: 'accepted' },
        created_at: '',
      },
    });
    await placing;
    expect(desk.of('a').outcome).toMatchObject({ kind: 'accepted', refund: '13.458000', full: true });
    expect(api.cashedOut).toEqual([
      { kind: 'accepted', orderId: 'o', amount: '10.000000', refund: '13.458000', full: true },
    ]);
    desk.stop();
  });

  it('quotes the partial amount on the slider and shows a decline with its reason', async () => {
    const api = fakeApi([bet('a')]);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    api.calls[0]!.answer(quote('10.000000', '13.000000'));
    await settle();
    vi.advanceTimersByTime(MIN_GAP_MS);
    desk.choosePart('a', 40, '10.000000');
    expect(desk.of('a').partAmount).toBe('4.00');
    api.calls[1]!.answer(quote('10.000000', '13.100000'));
    await settle();
    expect(api.calls[2]!.body).toEqual({ amount: '4.00' });
    api.calls[2]!.answer(quote('4.000000', '5.240000', 'part-1'));
    await settle();
    desk.ask('a', 'part');
    expect(desk.of('a').confirming).toMatchObject({ amount: '4.000000', refund: '5.240000', full: false });
    const placing = desk.confirm('a');
    api.calls.at(-1)!.answer({
      order: {
        id: 'o',
        amount: '4.000000',
        refund_amount: '5.240000',
        status: { code: 'declined', reason: 'price_moved' },
        created_at: '',
      },
    });
    await placing;
    expect(desk.of('a').outcome).toMatchObject({ kind: 'declined', reason: 'price_moved' });
    // the declined offer is gone from the screen until the new one comes
    expect(desk.of('a').full).toBeUndefined();
    expect(desk.of('a').part).toBeUndefined();
    expect(api.cashedOut).toEqual([]);
    // the new offer is asked at once
    expect(api.calls.at(-1)!.path).toBe('/frame-api/bets/a/cash-out/calculate');
    desk.stop();
  });

  it('hides cash-out where the operator pays none, and shows a reversed order in place of its acceptance until dismissed', async () => {
    const none = (reason: CashOutQuote['reason']): CashOutQuote => ({
      available: false,
      reason,
      amount: '10.000000',
      refund_amount: '0.000000',
      remaining_stake: '10.000000',
    });
    expect(neverOffered(none('cash_out_unavailable'))).toBe(true);
    expect(neverOffered(none('foreign_selections'))).toBe(true);
    expect(neverOffered(none('market_suspended'))).toBe(false);
    expect(neverOffered(quote('10.000000', '13.458000'))).toBe(false);
    expect(neverOffered(undefined)).toBe(false);

    const order = (id: string, code: 'accepted' | 'declined', reason?: CashOutQuote['reason']) => ({
      id,
      amount: '4.000000',
      refund_amount: '5.000000',
      status: { code, ...(reason ? { reason } : {}) },
      created_at: '',
    });
    const api = fakeApi([bet('a')]);
    const desk = new CashOutDesk(api.host, () => Date.now());
    desk.start();
    api.calls[0]!.answer(quote('10.000000', '13.458000'));
    await settle();
    desk.ask('a', 'full');
    const placing = desk.confirm('a');
    api.calls.at(-1)!.answer({ order: order('o-1', 'accepted') });
    await placing;
    const accepted = bet('a', { cash_out_orders: [order('o-1', 'accepted')] });
    expect(reversedOrder(accepted)).toBeUndefined();
    expect(desk.outcomeOf(accepted)).toMatchObject({ kind: 'accepted', orderId: 'o-1' });
    // Bookie reversed it: the open bet says so instead of the acceptance
    const reversed = bet('a', { cash_out_orders: [order('o-1', 'declined', 'partner_unsupported')] });
    expect(reversedOrder(reversed)?.id).toBe('o-1');
    expect(desk.outcomeOf(reversed)).toEqual({
      kind: 'declined',
      reason: 'partner_unsupported',
      betId: 'a',
      orderId: 'o-1',
    });
    // an order the partner cancelled is not a reversal
    expect(
      reversedOrder(bet('a', { cash_out_orders: [order('o-1', 'declined', 'cancelled_by_partner')] })),
    ).toBe(undefined);
    desk.dismiss('a', 'o-1');
    expect(desk.outcomeOf(reversed)).toBeUndefined();
    desk.stop();
  });
});
