import { randomUUID } from 'node:crypto';
import {
  add,
  compare,
  type DecisionSportEvent,
  decideBet,
  formatFeedOddValue,
  formatMoney,
  outcomeKey,
  parseDecimal,
  type Rational,
  rational,
  restriction,
  ZERO,
} from '@bookie/core';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { loadConfig } from '../../platform/config.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner } from '../../testing/partner.js';
import type { Bet } from '../bets/bet.js';
import { writeSettlementStates } from '../bets/index.js';
import { type HeldBet, writeDecisions, writeHolds } from '../placement/placement-writes.js';
import { cliSettlementDeps, type SettlementDeps } from '../settlement/deps.js';
import { cancelBet } from '../settlement/operator-actions/cancel-bet.js';
import { refundBet } from '../settlement/operator-actions/refund-bet.js';
import { resettleBet } from '../settlement/operator-actions/resettle-bet.js';
import { voidBet } from '../settlement/operator-actions/void-bet.js';
import { sampleEventInfo } from '../trading/fixtures.js';
import { readExposure } from './exposure.repo.js';
import { recomputeExposure } from './recompute-exposure.js';
import { exposureRows } from './record-exposure.js';

/**
 * Exposure cannot drift (D37): random accepts and declines (through placement's real decision writes, limits
 * re-checked under the exposure lock), settles and unsettles (settlement's state writes), voids, cancels, refunds
 * and resettles (the operator actions) — after every step the stored exposure of the outcomes touched equals a model
 * summed from the open bets with core's apportioning, and `recomputeExposure` finds no difference every
 * `RISK_PROPERTY_CHECK_EVERY` steps and at the end. Steps: `RISK_PROPERTY_STEPS` (default keeps the file short).
 */
const STEPS = Number(process.env.RISK_PROPERTY_STEPS ?? '120');
const FULL_CHECK_EVERY = Number(process.env.RISK_PROPERTY_CHECK_EVERY ?? '1');

const dec = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });
const EVENTS = ['e1', 'e2', 'e3', 'e4'];
const ODDS = ['1.5', '2.5', '3.5'];
const LIMIT = dec('400');

function event(id: string): DecisionSportEvent {
  return {
    id,
    bet_stop: false,
    fixture: { status: 0 },
    markets: {
      '1': {
        status: 0,
        type_id: 1,
        odds: Object.fromEntries(
          ODDS.map((v, i) => [
            String(i + 1),
            { value: formatFeedOddValue(dec(v)), status: 0, is_active: true },
          ]),
        ),
      },
    },
  };
}
const events = new Map(EVENTS.map((e) => [e, event(e)]));

type Step =
  | {
      kind: 'place';
      legs: Array<{ e: string; o: number }>;
      stake: string;
      invalid: boolean;
      /** The accept's re-check is told no outcomes (as when the sport event went live after the first decision). */
      unreadOutcomes: boolean;
    }
  | { kind: 'settle' | 'unsettle' | 'void' | 'cancel' | 'refund' | 'resettle'; pick: number };

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      legs: fc.uniqueArray(fc.record({ e: fc.constantFrom(...EVENTS), o: fc.integer({ min: 1, max: 3 }) }), {
        minLength: 1,
        maxLength: 3,
        selector: (l) => l.e,
      }),
      // up to 80.00: most bets fit the 400 limit alone, so accepts and limit declines both stay frequent
      stake: fc.integer({ min: 1, max: 8_000 }).map((c) => (c / 100).toFixed(2)),
      invalid: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), // declined by validation
      unreadOutcomes: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
  },
  ...(['settle', 'unsettle', 'void', 'cancel', 'refund', 'resettle'] as const).map((kind) => ({
    weight: kind === 'settle' || kind === 'unsettle' ? 2 : 1,
    arbitrary: fc.record({ kind: fc.constant(kind), pick: fc.nat() }),
  })),
);

describe(`exposure vs recompute under random steps (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let db: TestDatabase;
  let wl: string;
  let sd: SettlementDeps;

  beforeAll(async () => {
    db = await createTestDatabase();
    wl = (await createPartner({ database: db })).whiteLabelId;
    sd = cliSettlementDeps(db, loadConfig({ LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await db?.close();
  });

  it(
    `keeps 0 drift over ${STEPS} steps`,
    async () => {
      // the model: each open bet's leg exposures, from core's apportioning of the bet as stored
      const bets = new Map<string, { legs: ReturnType<typeof exposureRows>; open: boolean; state: string }>();
      const newest: string[] = [];
      const open = new Set<string>();
      const counts = { accepted: 0, declined: 0, settled: 0, unsettled: 0, operator: 0 };

      const modelOf = (keys: Set<string>) => {
        const out = new Map<string, Rational>();
        for (const b of bets.values()) {
          if (!b.open) continue;
          for (const l of b.legs) {
            const k = outcomeKey(l);
            if (keys.has(k)) out.set(k, add(out.get(k) ?? ZERO, dec(l.amount)));
          }
        }
        return out;
      };
      const rowOf = (id: string) =>
        db.db
          .selectFrom('bet')
          .select(['state', 'settlement_seq'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      const stateOf = async (id: string) => (await rowOf(id)).state;

      async function place(step: Extract<Step, { kind: 'place' }>) {
        const odds = step.legs.map((l) => dec(ODDS[l.o - 1] as string));
        const total = odds.reduce((a, b) => rational(a.num * b.num, a.den * b.den));
        const now = new Date();
        const [held] = await inTransaction(db.db, (tx) =>
          writeHolds(tx, [
            {
              id: randomUUID(),
              placeRequestId: randomUUID(),
              whiteLabelId: wl,
              playerId: 'p1',
              currency: 'EUR',
              betType: odds.length > 1 ? 'express' : 'single',
              systemSizes: [],
              stake: step.stake,
              oddsStrategy: 3,
              baseOdds: formatFeedOddValue(total),
              totalOdds: formatFeedOddValue(total),
              freebetId: null,
              insuranceId: null,
              boostId: null,
              foreignParams: {},
              sessionTokenHash: null,
              clientKey: null,
              createdAt: now,
              placementDeadline: new Date(now.getTime() + 30_000),
              selections: step.legs.map((l, i) => ({
                sportEventId: l.e,
                marketId: '1',
                oddId: String(l.o),
                requestedOdds: formatFeedOddValue(odds[i] as Rational),
                odds: formatFeedOddValue(odds[i] as Rational),
                oddUpdatedAt: now,
                matchStatus: 0,
                eventInfo: sampleEventInfo,
              })),
            },
          ]),
        );
        const bet = (held as { bet: Bet }).bet;
        const decide = (exposure: ReadonlyMap<string, Rational>) =>
          decideBet({
            bet: {
              type: odds.length > 1 ? 'express' : 'single',
              systemSizes: [],
              stake: dec(step.stake),
              currency: 'EUR',
              oddsStrategy: 3,
              selections: step.legs.map((l, i) => ({
                sport_event_id: l.e,
                market_id: '1',
                odd_id: String(l.o),
                odds: odds[i] as Rational,
              })),
            },
            event: (id) => events.get(id),
            whiteLabel: { betIntervalS: 0 },
            now: now.getTime(),
            lastBetAt: new Map(),
            expressCap: dec('50000'),
            oddsTolerance: ZERO,
            risk: {
              exposure,
              liabilityLimit: () => LIMIT,
              group: { name: 'default', stakeFactor: dec('1') },
              eurRate: dec('1'),
            },
          });
        const first = decide(new Map());
        const [decided] = await inTransaction(db.db, (tx) =>
          writeDecisions(tx, [
            {
              bet,
              place: { callback: (held as HeldBet).place, attempts: 1, status: 200 },
              restrictions: step.invalid ? [restriction('wl_defined', { rule: 'test' })] : [],
              acceptedOdds: first.acceptedOdds,
              totalOdds: first.totalOdds,
              decidedAt: now,
              risk: {
                whiteLabelId: wl,
                eurRate: dec('1'),
                outcomes: step.unreadOutcomes ? [] : first.legs.map((l) => l.outcome),
                decide,
              },
            },
          ]),
        );
        const row = (decided as Bet).row;
        if (row.state === 'accepted') {
          counts.accepted++;
          const legs = exposureRows({
            betId: row.id,
            whiteLabelId: wl,
            stake: row.stake,
            totalOdds: row.total_odds,
            legOdds: odds,
            legs: first.legs,
            eurRate: dec('1'),
          });
          // the accept's re-check decided on the locked exposure of every leg: none of them passed the limit
          for (const leg of legs) {
            const [stored] = await readExposure(db.db, wl, [leg]);
            expect(compare(dec(stored?.amount ?? '0'), LIMIT), outcomeKey(leg)).toBeLessThanOrEqual(0);
          }
          bets.set(row.id, { legs, open: true, state: 'accepted' });
          newest.push(row.id);
          open.add(row.id);
          return new Set(legs.map((l) => outcomeKey(l)));
        }
        counts.declined++;
        return new Set<string>();
      }

      async function transition(step: Extract<Step, { kind: Exclude<Step['kind'], 'place'> }>) {
        // settles and operator actions pick an open bet, unsettles and resettles one of the 200 newest: a long run
        // keeps closing what it opened (so bets keep fitting under the limits) rather than picking ended bets
        const recent =
          step.kind === 'unsettle' || step.kind === 'resettle' || open.size === 0
            ? newest.slice(-200)
            : [...open];
        if (recent.length === 0) return new Set<string>();
        const id = recent[step.pick % recent.length] as string;
        const b = bets.get(id) as NonNullable<ReturnType<typeof bets.get>>;
        const { state, settlement_seq } = await rowOf(id);
        if (step.kind === 'settle' || step.kind === 'unsettle') {
          const to =
            step.kind === 'settle'
              ? state === 'accepted' || state === 'unsettled'
                ? 'settled'
                : undefined
              : state === 'settled'
                ? 'unsettled'
                : undefined;
          if (!to) return new Set<string>();
          await inTransaction(db.db, (tx) =>
            writeSettlementStates(tx, [
              {
                id,
                from: state,
                kind: to === 'settled' ? 'settle' : 'unsettle',
                state: to,
                payout: to === 'settled' ? '0' : null,
                settle_amount: to === 'settled' ? '0' : null,
                settle_type: to === 'settled' ? 3 : null,
                settle_status: to === 'settled' ? 3 : null,
                settled_at: to === 'settled' ? new Date() : null,
                settlement_seq: settlement_seq + 1,
              },
            ]),
          );
          counts[to === 'settled' ? 'settled' : 'unsettled']++;
        } else {
          const input = { betId: id, reason: 'property test', actor: 'test' };
          const run = { void: voidBet, cancel: cancelBet, refund: refundBet, resettle: resettleBet }[
            step.kind
          ];
          await run(sd, step.kind === 'resettle' ? { ...input, reinstate: true } : input);
          counts.operator++;
        }
        b.state = await stateOf(id);
        b.open = b.state === 'accepted' || b.state === 'unsettled';
        if (b.open) open.add(id);
        else open.delete(id);
        return new Set(b.legs.map((l) => outcomeKey(l)));
      }

      await fc.assert(
        fc.asyncProperty(fc.array(arbStep, { minLength: STEPS, maxLength: STEPS }), async (steps) => {
          let n = 0;
          for (const step of steps) {
            const touched = step.kind === 'place' ? await place(step) : await transition(step);
            const keys = [...touched].map((k) => {
              const [phase, sport_event_id, market_id, odd_id] = JSON.parse(k) as [
                'prematch',
                string,
                string,
                string,
              ];
              return { phase, sport_event_id, market_id, odd_id };
            });
            const stored = new Map(
              (await readExposure(db.db, wl, keys)).map((r) => [outcomeKey(r), formatMoney(dec(r.amount))]),
            );
            const model = modelOf(touched);
            for (const k of touched)
              expect(stored.get(k) ?? '0.000000', k).toBe(formatMoney(model.get(k) ?? ZERO));
            n++;
            if (n % FULL_CHECK_EVERY === 0 || n === steps.length) {
              const report = await recomputeExposure(db.db);
              expect(report.outcome_differences).toEqual([]);
              expect(report.bet_differences).toEqual([]);
            }
          }
        }),
        { numRuns: 1, seed: Number(process.env.RISK_PROPERTY_SEED ?? '17'), endOnFailure: true },
      );
      expect(counts.accepted).toBeGreaterThan(0);
      // the numbers of a run, for the report of a long one
      if (process.env.RISK_PROPERTY_REPORT) console.log(JSON.stringify({ steps: STEPS, ...counts }));
    },
    Math.max(180_000, STEPS * 100),
  ); // room for a loaded machine and for long runs (100 ms a step)
});
