import { randomUUID } from 'node:crypto';
import {
  type BetCreation,
  type BetTransition,
  type DecisionLeg,
  formatFeedOddValue,
  mul,
  ONE,
  type OutcomeKey,
  parseDecimal,
  type Restriction,
} from '@bookie/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import {
  insertBets,
  loadBets,
  toPartnerBet,
  transitionBets,
  watchBetCreations,
  watchBetTransitions,
} from '../bets/index.js';
import { writeAcceptedExposure } from '../risk/index.js';
import { type ReportWrite, writeReports } from './report-writes.js';

const dec = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });
const EVENT = 'ev-decided';
const outcome = (odd: string, event = EVENT): OutcomeKey => ({
  sport_event_id: event,
  market_id: '1',
  odd_id: odd,
  phase: 'prematch',
});

/** A reported bet of the test: its legs (outcome, odds), stake, and whether its first decision declined it. */
interface Case {
  legs: Array<{ odd: string; odds: string; event?: string }>;
  stake: string;
  declined?: Restriction;
  /** Accepted without a kept exposure (no EUR rate): no leg exposure is written. */
  noRate?: boolean;
}

const CASES: Case[] = [
  { legs: [{ odd: '1', odds: '1.5' }], stake: '10' },
  { legs: [{ odd: '1', odds: '1.5' }], stake: '25.5' },
  { legs: [{ odd: '2', odds: '3.25' }], stake: '7.123456' },
  // an express of two legs, one on an outcome the singles share
  {
    legs: [
      { odd: '1', odds: '1.5' },
      { odd: '1', odds: '2.2', event: 'ev-decided-2' },
    ],
    stake: '12',
  },
  // declined by its first decision (keys out of the order jsonb keeps: the answer must read as stored)
  {
    legs: [{ odd: '3', odds: '4' }],
    stake: '50',
    declined: { context: { max_bet: '1.000000' }, type: 'max_bet' } as unknown as Restriction,
  },
  { legs: [{ odd: '2', odds: '3.25' }], stake: '3', noRate: true },
];

const declinedUnderLock: Restriction = { type: 'max_bet', context: { max_bet: '0.000000' } } as Restriction;

/** The decision's legs of a case (exposure as the first decision would give it; the write recomputes amounts). */
function legsOf(c: Case): DecisionLeg[] {
  return c.legs.map((l, i) => ({
    outcome: outcome(l.odd, l.event),
    marketTypeId: '1',
    exposure: dec(c.stake),
    unit: i,
  }));
}

const totalOf = (c: Case) => c.legs.map((l) => dec(l.odds)).reduce((a, b) => mul(a, b), ONE);

/** The write of one case for `whiteLabelId`; `lockDeclines` makes the recheck under the lock decline it. */
function reportOf(whiteLabelId: string, c: Case, lockDeclines = false): ReportWrite {
  const legs = legsOf(c);
  const now = new Date();
  return {
    bet: {
      id: randomUUID(),
      partnerBetId: `slip-${randomUUID()}`,
      whiteLabelId,
      playerId: 'decided-player',
      currency: 'EUR',
      betType: c.legs.length > 1 ? 'express' : 'single',
      systemSizes: [],
      stake: c.stake,
      oddsStrategy: 3,
      totalOdds: formatFeedOddValue(totalOf(c)),
      foreignParams: {},
      clientIp: null,
      countryCode: null,
      createdAt: now,
      decidedAt: now,
      selections: c.legs.map((l) => ({
        sportEventId: l.event ?? EVENT,
        marketId: '1',
        oddId: l.odd,
        requestedOdds: l.odds,
        odds: l.odds,
        oddUpdatedAt: now,
        matchStatus: 0,
        eventInfo: { provider_id: 'bookie', state: 'prematch' },
        foreignId: null,
      })),
      builders: [],
    },
    restrictions: c.declined ? [c.declined] : [],
    legs,
    legOdds: c.legs.map((l) => dec(l.odds)),
    ...(c.declined
      ? {}
      : {
          risk: {
            whiteLabelId,
            outcomes: legs.map((l) => l.outcome),
            decide: () =>
              lockDeclines ? { restrictions: [declinedUnderLock], legs } : { restrictions: [], legs },
            eurRate: c.noRate ? undefined : ONE,
          },
        }),
    request: '{}',
  };
}

/**
 * The same cases through the path reported bets took before they were created decided: inserted held, their leg
 * exposures written, then moved to their verdict by `UPDATE bet SET state` (the update's statement trigger adds the
 * exposure). What a reported bet adds must be exactly what this adds.
 */
async function heldThenDecided(t: TestDatabase, whiteLabelId: string, cases: readonly Case[]) {
  const writes = cases.map((c) => reportOf(whiteLabelId, c));
  await inTransaction(t.db, async (tx) => {
    await insertBets(
      tx,
      writes.map((w) => ({
        ...w.bet,
        baseOdds: w.bet.totalOdds,
        freebetId: null,
        insuranceId: null,
        boostId: null,
        sessionTokenHash: null,
        clientKey: null,
        placementDeadline: w.bet.createdAt,
        selections: w.bet.selections.map(({ foreignId: _, ...s }) => s),
      })),
    );
    const accepted = writes.filter((w) => w.restrictions.length === 0);
    await writeAcceptedExposure(
      tx,
      accepted.flatMap((w) =>
        w.risk?.eurRate
          ? [
              {
                betId: w.bet.id,
                whiteLabelId,
                stake: w.bet.stake,
                totalOdds: w.bet.totalOdds,
                legOdds: w.legOdds,
                legs: w.legs,
                eurRate: w.risk.eurRate,
              },
            ]
          : [],
      ),
    );
    await transitionBets(
      tx,
      'hold_requested',
      'accepted',
      accepted.map((w) => ({ id: w.bet.id, decidedAt: w.bet.decidedAt })),
    );
    await transitionBets(
      tx,
      'hold_requested',
      'declined',
      writes
        .filter((w) => w.restrictions.length > 0)
        .map((w) => ({ id: w.bet.id, restrictions: w.restrictions, decidedAt: w.bet.decidedAt })),
    );
  });
}

/** A white label's outcomes' exposure, without the white label (to compare two of them). */
async function exposureOf(t: TestDatabase, whiteLabelId: string) {
  const rows = await t.db
    .selectFrom('risk_exposure')
    .select(['phase', 'sport_event_id', 'market_id', 'odd_id', 'market_type_id', 'amount', 'max_amount'])
    .where('white_label_id', '=', whiteLabelId)
    .orderBy('sport_event_id')
    .orderBy('odd_id')
    .execute();
  return rows.map((r) => ({ ...r, amount: String(r.amount), max_amount: String(r.max_amount) }));
}

/**
 * A reported bet is created in its decided state (core's table of creations), its exposure added by the insert's
 * statement trigger in the same transaction: the same exposure the held-then-decided path added, nothing for a
 * declined bet, and no update of the bet row.
 */
describe(`reported bets created decided (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    // every update of a bet row, recorded (a bet created decided has one row version: none is updated)
    await sql`CREATE TABLE test_bet_update (bet_id uuid NOT NULL)`.execute(t.db);
    await sql`CREATE FUNCTION test_record_bet_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_bet_update VALUES (NEW.id); RETURN NULL; END $$`.execute(t.db);
    await sql`CREATE TRIGGER test_bet_update AFTER UPDATE ON bet
      FOR EACH ROW EXECUTE FUNCTION test_record_bet_update()`.execute(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds the exposure the held-then-decided path adds, in one batch and in several', async () => {
    const once = CASES.map((c) => reportOf('wl-once', c));
    await inTransaction(t.db, (tx) => writeReports(tx, once));
    // one batch per bet: each insert adds to what the last one left
    for (const c of CASES) {
      await inTransaction(t.db, (tx) => writeReports(tx, [reportOf('wl-each', c)]));
    }
    await heldThenDecided(t, 'wl-held', CASES);

    const held = await exposureOf(t, 'wl-held');
    // the accepted legs with a rate: ev-decided 1 (three bets), 2 (one), ev-decided-2 1 (the express); not odd 3
    expect(held.map((r) => `${r.sport_event_id}/${r.odd_id}`)).toEqual([
      'ev-decided/1',
      'ev-decided/2',
      'ev-decided-2/1',
    ]);
    expect(held.every((r) => !/^0(\.0+)?$/.test(r.amount) && r.amount === r.max_amount)).toBe(true);
    expect(await exposureOf(t, 'wl-once')).toEqual(held);
    expect(await exposureOf(t, 'wl-each')).toEqual(held);

    // the outcomes' exposure is the sum of the open bets' leg exposures (what `bookie risk recompute` checks)
    const drift = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM risk_exposure r
      FULL JOIN (SELECT e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id, sum(e.amount) AS amount
                   FROM bet_exposure e JOIN bet b ON b.id = e.bet_id
                  WHERE b.state IN ('accepted', 'unsettled')
                  GROUP BY 1, 2, 3, 4, 5) s
        USING (white_label_id, phase, sport_event_id, market_id, odd_id)
      WHERE r.amount IS DISTINCT FROM s.amount`.execute(t.db);
    expect(drift.rows[0]?.n).toBe('0');
  });

  it('adds nothing for a bet declined under the lock, and writes it no leg exposure', async () => {
    const w = reportOf('wl-lock', CASES[0] as Case, true);
    const [answer] = await inTransaction(t.db, (tx) => writeReports(tx, [w]));
    expect(JSON.parse(answer as string).bet.status.code).toBe(2);
    expect(await exposureOf(t, 'wl-lock')).toEqual([]);
    const legs = await t.db.selectFrom('bet_exposure').select('idx').where('bet_id', '=', w.bet.id).execute();
    expect(legs).toEqual([]);
  });

  it('creates each bet decided in one row version, through core’s table and no transition', async () => {
    const transitions: BetTransition[] = [];
    const creations: BetCreation[] = [];
    const stopT = watchBetTransitions((x) => transitions.push(x));
    const stopC = watchBetCreations((x) => creations.push(x));
    const writes = CASES.map((c) => reportOf('wl-versions', c));
    try {
      await inTransaction(t.db, (tx) => writeReports(tx, writes));
    } finally {
      stopT();
      stopC();
    }
    expect(transitions).toEqual([]);
    expect([...new Set(creations.map((c) => `${c.source}:${c.state}`))].sort()).toEqual([
      'mts:accepted',
      'mts:declined',
    ]);
    const ids = writes.map((w) => w.bet.id);
    const updated = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM test_bet_update WHERE bet_id = ANY(${ids}::uuid[])`.execute(t.db);
    expect(updated.rows[0]?.n).toBe('0');
    const states = await t.db
      .selectFrom('bet')
      .select(['id', 'state', 'restrictions', 'decided_at'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(states.map((s) => [s.id, s]));
    for (const w of writes) {
      const s = byId.get(w.bet.id);
      expect(s?.state).toBe(w.restrictions.length > 0 ? 'declined' : 'accepted');
      expect(s?.restrictions).toEqual(w.restrictions);
      expect(s?.decided_at?.getTime()).toBe(w.bet.decidedAt.getTime());
    }
  });

  it('answers the bet as stored, byte for byte, without reading it back', async () => {
    const writes = CASES.map((c) => reportOf('wl-answer', c));
    const answers = await inTransaction(t.db, (tx) => writeReports(tx, writes));
    const stored = await loadBets(
      t.db,
      writes.map((w) => w.bet.id),
    );
    stored.forEach((bet, i) => {
      const answer = JSON.parse(answers[i] as string) as { bet: unknown; restrictions: unknown };
      expect(JSON.stringify(answer.bet)).toBe(JSON.stringify(toPartnerBet(bet)));
    });
    expect(stored.length).toBe(writes.length);
    // the declined case's restriction reads in the key order jsonb keeps, in the answer as in the row
    const declined = JSON.parse(answers[4] as string).bet;
    expect(Object.keys(declined.restrictions[0])).toEqual(['type', 'context']);
  });

  it('stores each request and answer byte for byte, texts jsonb would rewrite included', async () => {
    // key order jsonb would sort, a repeated key, escapes, a quote, non-ASCII and a number's own spelling;
    const requests = [
      '{"z":1,"a":[true,null],"bet_id":"r1"}',
      '{"k":"\\u00e9\\"q\\\\","k":"é ∑ 😀","n":1.50}',
      // escapes JSON allows and Postgres's json types refuse (a NUL, a lone surrogate)
      '{"nul":"a\\u0000b","half":"\\ud800"}',
    ];
    const writes = requests.map((request, i) => ({ ...reportOf('wl-request', CASES[i] as Case), request }));
    const answers = await inTransaction(t.db, (tx) => writeReports(tx, writes));
    const rows = await t.db
      .selectFrom('mts_request')
      .select(['partner_bet_id', 'request', 'answer'])
      .where('white_label_id', '=', 'wl-request')
      .execute();
    const byId = new Map(rows.map((r) => [r.partner_bet_id, r]));
    writes.forEach((w, i) => {
      expect(byId.get(w.bet.partnerBetId)?.request).toBe(requests[i]);
      expect(byId.get(w.bet.partnerBetId)?.answer).toBe(answers[i]);
    });
  });
});
