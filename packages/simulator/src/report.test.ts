import type { BetView } from '@bookie/contracts';
import { describe, expect, it } from 'vitest';
import type { PlannedBet } from './bettors.js';
import { parseFootballData } from './football-data.js';
import { buildTimeline } from './replay.js';
import { type BetOutcome, betsOutLine, buildReport, formatReport, type ReportInput } from './report.js';
import { buildSeasonScript } from './season-script.js';
import { csvOf, SAMPLE_ROW } from './testing.js';

// two matches: Arsenal v Chelsea 2-1 (AH −0.25 → home wins), Spurs v Fulham 1-1 (AH −0.25 → home half loss)
const season = parseFootballData(
  csvOf([
    SAMPLE_ROW,
    { ...SAMPLE_ROW, HomeTeam: 'Spurs', AwayTeam: 'Fulham', FTHG: '1', FTAG: '1', HTHG: '0' },
  ]),
  { file: 'T.csv' },
);
const script = buildSeasonScript([season]);
const [m1, m2] = script.matches;

function plan(index: number, type: PlannedBet['type'] = 'single'): PlannedBet {
  return { index, key: `k${index}`, player: 0, type, legs: [0], stake: '10.00', strategy: 3, at: 0 };
}

function view(id: string, over: Partial<BetView>): BetView {
  return {
    id,
    status: 3,
    state: 'settled',
    bet_type: 'single',
    system_sizes: [],
    stake: '10.000000',
    currency: 'EUR',
    total_odds: '2.000000',
    selections: [],
    restrictions: [],
    freebet_id: null,
    insurance_id: null,
    boost_id: null,
    created_at: '2023-08-12T10:00:00.000Z',
    decided_at: '2023-08-12T10:00:00.000Z',
    payout: null,
    settle_amount: null,
    settle_type: null,
    cashed_out_stake: '0.000000',
    cashed_out_refund: '0.000000',
    ...over,
  };
}

const sel = (ev: typeof m1, market: string, odd: string, odds: string, status: number) => ({
  sport_event_id: ev!.sportEventId,
  market_id: market,
  odd_id: odd,
  requested_odds: odds,
  odds,
  status,
});

// bet a: single AH home on match 1, won at 1.95 → 19.50; bet b: single AH home on match 2, half loss → 5.00;
// bet c: express 1X2 home (win 2.0) × draw (win 3.4) → 68.00; bet d: declined (odds moved); bet e: place error
const bets: BetView[] = [
  view('a', {
    selections: [sel(m1, '16:hcp=-0.25', 'home', '1.950000', 1)],
    settle_amount: '19.500000',
    settle_type: 1,
  }),
  view('b', {
    selections: [sel(m2, '16:hcp=-0.25', 'home', '1.900000', 4)],
    settle_amount: '5.000000',
    settle_type: 3,
  }),
  view('c', {
    bet_type: 'express',
    stake: '10.000000',
    selections: [sel(m1, '1', 'home', '2.000000', 1), sel(m2, '1', 'draw', '3.400000', 1)],
    settle_amount: '68.000000',
    settle_type: 1,
  }),
  view('d', {
    status: 2,
    state: 'declined',
    selections: [sel(m1, '18:total=2.5', 'over', '1.800000', 0)],
    restrictions: [{ type: 'selection_value', context: {} }],
  }),
  view('e', {
    status: 10,
    state: 'place_error',
    selections: [sel(m1, '1', 'away', '3.500000', 0)],
    restrictions: [{ type: 'not_enough_balance', context: {} }],
  }),
];

function input(over: Partial<ReportInput> = {}): ReportInput {
  const outcomes: BetOutcome[] = bets.map((b, i) => ({ plan: plan(i), playerId: 'p1', answer: b }));
  outcomes.push({ plan: plan(9), playerId: 'p1', error: 'POST … → 422' });
  // deposits 100; stakes 30 captured; payouts 92.50 → 162.50
  const ledger = [
    { kind: 'deposit', reason: 'deposit', amount: '100.000000', bet_id: null },
    ...['a', 'b', 'c'].flatMap((id) => [
      { kind: 'hold', reason: 'place', amount: '10.000000', bet_id: id },
      { kind: 'capture', reason: 'accept', amount: '10.000000', bet_id: id },
    ]),
    { kind: 'hold', reason: 'place', amount: '10.000000', bet_id: 'd' },
    { kind: 'release', reason: 'decline', amount: '10.000000', bet_id: 'd' },
    { kind: 'credit', reason: 'settle', amount: '19.500000', bet_id: 'a' },
    { kind: 'credit', reason: 'settle', amount: '5.000000', bet_id: 'b' },
    { kind: 'credit', reason: 'settle', amount: '68.000000', bet_id: 'c' },
  ];
  return {
    seed: 's',
    currency: 'EUR',
    seasons: [season],
    script,
    outcomes,
    finalBets: new Map(bets.map((b) => [b.id, b])),
    deposits: new Map([['p1', ['100.00']]]),
    wallet: new Map([['p1', { available: '162.500000', held: '0.000000', ledger }]]),
    walletInvariantOk: true,
    bookie: { stakes_accepted: '30.000000', net_payout: '92.500000', open_bets: 0, ledger_mismatches: 0 },
    pendingCallbacks: 0,
    timing: { elapsed_s: 3, trading_commands: 16, bets_per_s: 2, replay_s: 2.5, timeline_s: 2 },
    ...over,
  };
}

describe('buildReport', () => {
  it('counts bets, declines by restriction, settle types, and GGR per market', () => {
    const r = buildReport(input());
    expect(r.fixtures).toMatchObject({ matches: 2, markets: { '1x2': 2, total: 2, asian_handicap: 2 } });
    expect(r.bets).toEqual({
      planned: 6,
      placed: 5,
      accepted: 3,
      declined: 1,
      place_errors: 1,
      force_declined: 0,
      not_placed: 1,
      by_type: { single: 4, express: 1, system: 0 },
      declined_by_restriction: { selection_value: 1, not_enough_balance: 1 },
    });
    expect(r.settled).toEqual({
      bets: 3,
      by_settle_type: { win: 2, refund: 0, lost: 1 },
      selection_statuses: { 1: 3, 4: 1 },
    });
    const byMarket = Object.fromEntries(r.markets.map((m) => [m.market, m]));
    expect(byMarket.asian_handicap).toEqual({
      market: 'asian_handicap',
      bets: 2,
      stakes: '20.000000',
      payouts: '24.500000',
      ggr: '-4.500000',
      margin_pct: '-22.50',
    });
    expect(byMarket.express).toMatchObject({ bets: 1, ggr: '-58.000000', margin_pct: '-580.00' });
    expect(byMarket.total).toMatchObject({ bets: 0, margin_pct: null });
    expect(byMarket.all).toMatchObject({ bets: 3, stakes: '30.000000', payouts: '92.500000' });
    expect(r.reconciliation).toMatchObject({ ok: true, problems: [], players: 1, wallet_held: '0.000000' });
    expect(formatReport(r)).toContain('Reconciliation: OK');
    // the bet builder calibration of the two replayed matches: 2-1 and 1-1 at their kick-off odds
    expect(r.builder_calibration).toMatchObject({ matches: 2, skipped: 0 });
    const cal = (name: string) => r.builder_calibration.lines.find((l) => l.name === name);
    expect(cal('home & btts')).toMatchObject({ n: 2, hits: 1, hit_rate: 0.5 });
    expect(cal('btts & under 2.5')).toMatchObject({ n: 2, hits: 1 });
    expect(cal('away & over 2.5')).toMatchObject({ n: 2, hits: 0, rel_diff: null });
    expect(formatReport(r)).toContain('Bet builder calibration: 2 matches fitted');
  });

  it('fails the reconciliation on a wrong balance, a hold left, an unsettled bet or a bad Bookie report', () => {
    const base = input();
    const w = base.wallet.get('p1')!;
    const wrong = buildReport(input({ wallet: new Map([['p1', { ...w, available: '162.510000' }]]) }));
    expect(wrong.reconciliation.ok).toBe(false);
    expect(wrong.reconciliation.wallet_balances_match).toBe(false);
    expect(wrong.reconciliation.problems[0]).toContain('p1');

    const held = buildReport(input({ wallet: new Map([['p1', { ...w, held: '10.000000' }]]) }));
    expect(held.reconciliation.no_holds_left).toBe(false);

    const ledger = buildReport(
      input({
        wallet: new Map([
          ['p1', { ...w, ledger: w.ledger.filter((l) => !(l.bet_id === 'b' && l.kind === 'credit')) }],
        ]),
      }),
    );
    expect(ledger.reconciliation.wallet_ledger_matches_bets).toBe(false);

    // the right amounts in another currency: the wallet booked bet "a" in USD, Bookie's bet is in EUR
    const usd = buildReport(
      input({
        wallet: new Map([
          [
            'p1',
            { ...w, ledger: w.ledger.map((l) => ({ ...l, currency: l.bet_id === 'a' ? 'USD' : 'EUR' })) },
          ],
        ]),
      }),
    );
    expect(usd.reconciliation.wallet_ledger_matches_bets).toBe(false);
    expect(usd.reconciliation.problems.join('\n')).toContain('in USD');

    const open = new Map(base.finalBets);
    open.set('c', {
      ...open.get('c')!,
      status: 1,
      state: 'accepted',
      settle_amount: null,
      settle_type: null,
    });
    const unsettled = buildReport(input({ finalBets: open }));
    expect(unsettled.reconciliation.every_accepted_bet_settled).toBe(false);
    expect(unsettled.reconciliation.ok).toBe(false);

    const bookie = buildReport(input({ bookie: { ...base.bookie, net_payout: '92.000000' } }));
    expect(bookie.reconciliation.bookie_report_ok).toBe(false);
    expect(buildReport(input({ pendingCallbacks: 2 })).reconciliation.outbox_drained).toBe(false);
    expect(buildReport(input({ walletInvariantOk: false })).reconciliation.ok).toBe(false);
  });
});

describe('betsOutLine', () => {
  it('names each selection by match date, teams, market type, line and outcome', () => {
    const byId = new Map(script.matches.map((m) => [m.sportEventId, m]));
    const line = betsOutLine(bets[2]!, 'p1', byId);
    expect(line).toMatchObject({
      bet_id: 'c',
      player_id: 'p1',
      bet_type: 'express',
      stake: '10.000000',
      currency: 'EUR',
      status: 3,
      settle_amount: '68.000000',
      settle_type: 1,
    });
    expect(line.selections).toEqual([
      {
        sport_event_id: m1!.sportEventId,
        date: '2023-08-12',
        home: 'Arsenal',
        away: 'Chelsea',
        market_type: '1x2',
        line: null,
        outcome: 'home',
        odds: '2.000000',
        status: 1,
      },
      expect.objectContaining({ home: 'Spurs', away: 'Fulham', outcome: 'draw' }),
    ]);
    expect(betsOutLine(bets[1]!, 'p1', byId).selections[0]).toMatchObject({
      market_type: 'asian_handicap',
      line: '-0.25',
      status: 4,
    });
    expect(betsOutLine(bets[3]!, 'p1', byId).selections[0]).toMatchObject({
      market_type: 'total',
      line: '2.5',
    });
  });
});

describe('buildTimeline', () => {
  it('orders by simulated time, trading steps before bets on a tie, and a late bet reads before it places', () => {
    const open = script.steps.find((s) => s.step === 'open')!;
    const late: PlannedBet = { ...plan(1), at: open.at + 10, lookAt: open.at };
    const early: PlannedBet = { ...plan(2), at: open.at + 5 };
    const t = buildTimeline(script.steps, [late, early]);
    expect(t).toHaveLength(script.steps.length + 3);
    for (let i = 1; i < t.length; i++) expect(t[i]!.at).toBeGreaterThanOrEqual(t[i - 1]!.at);
    const idx = (f: (a: (typeof t)[number]) => boolean) => t.findIndex(f);
    expect(idx((a) => a.kind === 'step' && a.step === open)).toBeLessThan(idx((a) => a.kind === 'look'));
    expect(idx((a) => a.kind === 'look')).toBeLessThan(idx((a) => a.kind === 'place' && a.bet === early));
    expect(idx((a) => a.kind === 'place' && a.bet === early)).toBeLessThan(
      idx((a) => a.kind === 'place' && a.bet === late),
    );
  });
});

describe('buildReport in play', () => {
  // bet a cashed out in part (5 of 10 for 6.000, the rest settled at 1.95: 9.75); live bet f cashed out in full
  // (10 for 12.340) after new prices during its delay moved it from 2.10 to 2.05
  const partial = { ...bets[0]!, settle_amount: '9.750000' };
  const full = view('f', {
    status: 7,
    state: 'cashed_out',
    selections: [{ ...sel(m1, '1', 'home', '2.050000', 0), requested_odds: '2.100000' }],
  });
  const cashOuts = [
    {
      betId: 'a',
      playerId: 'p1',
      match: 0,
      minute: "50'",
      kind: 'partial' as const,
      via: 'frame' as const,
      amount: '5.000000',
      order: {
        id: 'o1',
        amount: '5.000000',
        refund_amount: '6.000000',
        status: { code: 'accepted' as const },
        created_at: '',
      },
      fair: '6.400000',
    },
    {
      betId: 'f',
      playerId: 'p1',
      match: 0,
      minute: "70'",
      kind: 'full' as const,
      via: 'partner' as const,
      amount: '10.000000',
      order: {
        id: 'o2',
        amount: '10.000000',
        refund_amount: '12.340000',
        status: { code: 'accepted' as const },
        created_at: '',
      },
      fair: '13.000000',
    },
  ];
  const callbacks = new Map([
    ['a', [{ status: 'delivered', refund_amount: '6.000000' }]],
    ['f', [{ status: 'delivered', refund_amount: '12.340000' }]],
  ]);
  function inPlayInput(over: Partial<ReportInput> = {}): ReportInput {
    const base = input();
    const w = base.wallet.get('p1')!;
    const ledger = [
      ...w.ledger.map((l) => (l.bet_id === 'a' && l.kind === 'credit' ? { ...l, amount: '9.750000' } : l)),
      { kind: 'credit', reason: 'cash_out', amount: '6.000000', bet_id: 'a' },
      { kind: 'hold', reason: 'place', amount: '10.000000', bet_id: 'f' },
      { kind: 'capture', reason: 'accept', amount: '10.000000', bet_id: 'f' },
      { kind: 'credit', reason: 'cash_out', amount: '12.340000', bet_id: 'f' },
    ];
    const finalBets = new Map(base.finalBets);
    finalBets.set('a', partial);
    finalBets.set('f', full);
    const live = {
      plan: { ...plan(10), intent: 'live' as const },
      playerId: 'p1',
      answer: full,
      live: { match: 0, minute: "63'", during: 'odds' as const, sentDuringDelay: true },
    };
    return input({
      outcomes: [...base.outcomes.map((o) => (o.answer?.id === 'a' ? { ...o, answer: partial } : o)), live],
      finalBets,
      // 100 − 40 + 9.75 + 5 + 68 + 6 + 12.34
      wallet: new Map([['p1', { ...w, available: '161.090000', ledger }]]),
      bookie: { stakes_accepted: '40.000000', net_payout: '82.750000', open_bets: 0, ledger_mismatches: 0 },
      inPlay: { cashOuts, cashOutCallbacks: callbacks, commands: 95, matches: 1 },
      ...over,
    });
  }

  it('reconciles cash-outs with the wallet and the callbacks, counts them and the margin earned', () => {
    const r = buildReport(inPlayInput());
    expect(r.reconciliation.problems).toEqual([]);
    expect(r.reconciliation).toMatchObject({ ok: true, cash_outs_match: true, cash_out_paid: '18.340000' });
    expect(r.in_play!.cash_outs).toMatchObject({
      placed: 2,
      accepted_full: 1,
      accepted_partial: 1,
      stake_cashed_out: '15.000000',
      paid: '18.340000',
      fair_value: '19.400000',
      margin_earned: '1.060000',
      margin_pct: '5.46',
    });
    expect(r.in_play!.live_bets.odds_during_delay).toMatchObject({
      sent: 1,
      accepted: 1,
      accepted_at_new_odds: 1,
    });
    // a cash-out is a payout of its bet in the market table
    const byMarket = Object.fromEntries(r.markets.map((m) => [m.market, m]));
    expect(byMarket.asian_handicap).toMatchObject({ stakes: '20.000000', payouts: '20.750000' });
    expect(byMarket['1x2']).toMatchObject({ bets: 1, stakes: '10.000000', payouts: '12.340000' });
    const text = formatReport(r);
    expect(text).toContain('1 full and 1 partial accepted');
    expect(text).toContain('Reconciliation: OK');
  });

  it('fails when a cash-out was not paid as accepted: a missing callback, a wrong wallet credit', () => {
    const missing = buildReport(
      inPlayInput({
        inPlay: { cashOuts, cashOutCallbacks: new Map([['a', callbacks.get('a')!]]), commands: 1 },
      }),
    );
    expect(missing.reconciliation.ok).toBe(false);
    expect(missing.reconciliation.cash_outs_match).toBe(false);
    expect(missing.reconciliation.problems.join('\n')).toContain('bet f');
    const pending = buildReport(
      inPlayInput({
        inPlay: {
          cashOuts,
          cashOutCallbacks: new Map([
            ...callbacks,
            ['f', [{ status: 'pending', refund_amount: '12.340000' }]],
          ]),
          commands: 1,
        },
      }),
    );
    expect(pending.reconciliation.cash_outs_match).toBe(false);
    const base = inPlayInput();
    const w = base.wallet.get('p1')!;
    const short = buildReport(
      inPlayInput({
        wallet: new Map([
          [
            'p1',
            {
              ...w,
              ledger: w.ledger.map((l) =>
                l.reason === 'cash_out' && l.bet_id === 'f' ? { ...l, amount: '12.330000' } : l,
              ),
            },
          ],
        ]),
      }),
    );
    expect(short.reconciliation.cash_outs_match).toBe(false);
    expect(short.reconciliation.ok).toBe(false);
    // without the in-play phase the report has neither the section nor the check
    const plain = buildReport(input());
    expect(plain.in_play).toBeUndefined();
    expect(plain.reconciliation.cash_outs_match).toBeUndefined();
  });
});
