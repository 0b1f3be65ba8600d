import { CALLBACK_PATHS } from '@bookie/contracts';
import {
  type BuilderQuote,
  type DecisionLeg,
  formatFeedOddValue,
  parseDecimal,
  type Rational,
  type Restriction,
} from '@bookie/core';
import { GroupCommit } from '@bookie/storage';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import {
  type Bet,
  type BetRow,
  betSportEvents,
  type ClientKey,
  declineBody,
  findBetsByClientKey,
  insertBets,
  loadBets,
  type NewBet,
  newBetSportEvents,
  placeBody,
  recordBetTimes,
  sendLastBetTimes,
  setAcceptedBuilderOdds,
  setAcceptedOdds,
  transitionBets,
} from '../bets/index.js';
// bonuses: the module's placement hooks, called where marked "bonuses"
import { claimBonuses, releaseBonuses, reserveBonuses } from '../bonuses/index.js';
import {
  type CallbackToEnqueue,
  type EnqueuedCallback,
  type PreparedCallback,
  prepareCallback,
  recordSyncDeliveries,
  sendCallbacks,
} from '../callbacks/index.js';
import {
  dropExposure,
  type FirstRequest,
  playerRiskKey,
  type RiskRecheck,
  recheckLimits,
  recordFirstRequests,
  writeAcceptedExposure,
} from '../risk/index.js';

/**
 * A bet placement forms (step 1 of spec 01 "States and transitions"): the bet, in `hold_requested`, with the
 * request_id of its `/bet/place`; with the risk engine, the group the player's first request puts them in (recorded
 * unless the player has one already).
 */
export type HoldWrite = NewBet & {
  placeRequestId: string;
  firstRequest?: Omit<FirstRequest, 'whiteLabelId' | 'playerId'>;
};

/**
 * A bet as held: the bet (with its reserved bonuses), its `/bet/place` as sent (written to the outbox with its
 * outcome), and bet_interval's facts.
 */
export interface HeldBet {
  bet: Bet;
  place: PreparedCallback;
  /** When the player last had a bet accepted on each of the bet's sport events. */
  lastBets: Map<string, Date>;
  /** The player's risk group (D38) when the hold carried a first request. */
  riskGroup?: string;
}

/** The decision on a held bet whose `/bet/place` succeeded (step 4): accept when `restrictions` is empty. */
export interface DecisionWrite {
  bet: Bet;
  /** The `/bet/place` as sent and how its delivery went. */
  place: { callback: PreparedCallback; attempts: number; status: number | null };
  /** Every restriction validation found (empty: accept). */
  restrictions: Restriction[];
  /** The odds each selection is accepted at, by selection index. */
  acceptedOdds: readonly Rational[];
  /** The combined odds each builder is accepted at, by builder index. */
  acceptedBuilderOdds?: readonly Rational[];
  /** Each builder's price as decided on (its probabilities are recorded with the accepted odds), by builder index. */
  builderQuotes?: readonly (BuilderQuote | undefined)[];
  /** The accepted total odds before any boost. */
  totalOdds: Rational;
  decidedAt: Date;
  /** The risk engine's part: decided again on the locked exposure in the accept transaction (D38); none when off. */
  risk?: RiskRecheck;
}

const hasBonus = (b: { freebet_id: string | null; insurance_id: string | null; boost_id: string | null }) =>
  b.freebet_id !== null || b.insurance_id !== null || b.boost_id !== null;

/**
 * Step 1 for several bets in one transaction: inserts the bets (each with the request_id of its `/bet/place`) and
 * reserves their bonuses; each one's `/bet/place` is serialised from the bet as committed, to be sent by placement
 * and written to the outbox once, with its outcome ({@link recordSyncDeliveries}; the recovery of an interrupted
 * placement writes it from the bet). Also reads bet_interval's facts. Results in the order of `items`.
 */
export async function writeHolds(tx: Executor, items: readonly HoldWrite[]): Promise<HeldBet[]> {
  // the players' last bet times are read with the inserts (one round trip; this transaction does not write them)
  const lastSent = await sendLastBetTimes(
    tx,
    items.map((b) => ({
      whiteLabelId: b.whiteLabelId,
      playerId: b.playerId,
      sportEventIds: newBetSportEvents(b),
    })),
  );
  const inserted = await insertBets(tx, items);
  // bonuses: reserve the freebet and the boost with the bet (before the place body is built)
  const withBonus = items.filter((b) => b.freebetId || b.boostId || b.insuranceId);
  for (const b of withBonus) {
    await reserveBonuses(tx, {
      betId: b.id,
      whiteLabelId: b.whiteLabelId,
      playerId: b.playerId,
      freebetId: b.freebetId,
      boostId: b.boostId,
      baseOdds: b.baseOdds,
      now: b.createdAt,
    });
  }
  // a bonus may have changed the bet (boosted odds): read those back
  const reloaded = new Map(
    (
      await loadBets(
        tx,
        withBonus.map((b) => b.id),
      )
    ).map((b) => [b.row.id, b]),
  );
  const bets = inserted.map((b) => reloaded.get(b.row.id) ?? b);
  const places = bets.map((bet, i) => placeCallback(bet, (items[i] as HoldWrite).placeRequestId));
  const last = await lastSent.times;
  // the risk engine: the players' groups, each player's first request recorded (spec 03 VIP)
  const groups = await recordFirstRequests(
    tx,
    items.flatMap((b) =>
      b.firstRequest ? [{ whiteLabelId: b.whiteLabelId, playerId: b.playerId, ...b.firstRequest }] : [],
    ),
  );
  return bets.map((bet, i) => {
    const group = groups.get(playerRiskKey(bet.row.white_label_id, bet.row.player_id));
    return {
      bet,
      place: places[i] as PreparedCallback,
      lastBets: last[i] as Map<string, Date>,
      ...(group !== undefined ? { riskGroup: group } : {}),
    };
  });
}

/**
 * The `/bet/place` of a held bet, serialised with its request_id: the bytes placement sends, and the recovery of an
 * interrupted placement writes (the same bet and request_id give the same bytes).
 */
export function placeCallback(bet: Bet, requestId: string): PreparedCallback {
  return prepareCallback(
    {
      whiteLabelId: bet.row.white_label_id,
      betId: bet.row.id,
      path: CALLBACK_PATHS.place,
      body: placeBody(bet),
      foreignParams: bet.row.foreign_params,
    },
    requestId,
  );
}

/**
 * Step 4 for several bets in one transaction: claims the bonuses of the bets
 * to accept, moves each bet to Accept (writing the odds it was accepted at and bet_interval's time) or to Decline
 * (giving its bonuses back), writes each `/bet/place` with its outcome (delivered) and enqueues `/bet/accept` or
 * `/bet/decline` after it — each bet's change with its callbacks.
 * Returns each bet as decided, or undefined for a bet decided elsewhere first (the recovery job).
 */
export async function writeDecisions(
  tx: Executor,
  items: readonly DecisionWrite[],
  /**
   * The callbacks are born leased to a dispatcher; `enqueued` gets them (their ids come with the commit's round trip)
   * for it to deliver after the commit.
   */
  adopt?: { lease: { owner: string; ms: number } | undefined; enqueued: Promise<EnqueuedCallback[]>[] },
): Promise<Array<Bet | undefined>> {
  // the risk engine: the limits decided again on the exposure as it is now, under its lock (D38)
  const rechecking = items.filter((d) => d.restrictions.length === 0 && d.risk !== undefined);
  const rechecked = await recheckLimits(
    tx,
    rechecking.map((d) => ({ risk: d.risk as RiskRecheck })),
  );
  const riskRestrictions = new Map<DecisionWrite, Restriction[]>();
  const riskLegs = new Map<DecisionWrite, DecisionLeg[]>();
  rechecking.forEach((d, i) => {
    const v = rechecked[i] as { restrictions: Restriction[]; legs: DecisionLeg[] };
    if (v.restrictions.length > 0) riskRestrictions.set(d, v.restrictions);
    else riskLegs.set(d, v.legs);
  });
  const accepts: Array<{ d: DecisionWrite; totalOdds: string; baseOdds: string }> = [];
  const declines: Array<{ d: DecisionWrite; restrictions: Restriction[] }> = [];
  for (const d of items) {
    const baseOdds = formatFeedOddValue(d.totalOdds);
    const restrictions = riskRestrictions.get(d) ?? d.restrictions;
    if (restrictions.length > 0) {
      declines.push({ d, restrictions });
      continue;
    }
    const row = d.bet.row;
    if (row.insurance_id === null && row.boost_multiplier === null) {
      accepts.push({ d, totalOdds: baseOdds, baseOdds });
      continue;
    }
    // bonuses: apply the insurance and consume the boost as the bet is accepted, or decline
    const bonus = await claimBonuses(tx, {
      betId: row.id,
      whiteLabelId: row.white_label_id,
      playerId: row.player_id,
      insuranceId: row.insurance_id,
      boostMultiplier: row.boost_multiplier,
      baseOdds: d.totalOdds,
      now: d.decidedAt,
    });
    if (bonus.restrictions.length > 0) declines.push({ d, restrictions: bonus.restrictions });
    else accepts.push({ d, totalOdds: bonus.totalOdds, baseOdds });
  }

  const decided = new Map<string, Bet>();
  const callbacks: CallbackToEnqueue[] = [];
  // the legs' exposure, written before the state change so the bet state trigger counts it (D37)
  const exposed = accepts.flatMap(({ d, totalOdds }) => {
    const legs = riskLegs.get(d);
    const eurRate = d.risk?.eurRate;
    if (!legs || !eurRate) return [];
    return [
      {
        betId: d.bet.row.id,
        whiteLabelId: d.bet.row.white_label_id,
        stake: d.bet.row.stake,
        totalOdds,
        legOdds: [...d.acceptedOdds, ...(d.acceptedBuilderOdds ?? [])],
        legs,
        eurRate,
      },
    ];
  });
  await writeAcceptedExposure(tx, exposed);

  const acceptedRows = byId(
    await transitionBets(
      tx,
      'hold_requested',
      'accepted',
      accepts.map((a) => ({
        id: a.d.bet.row.id,
        row: a.d.bet.row,
        decidedAt: a.d.decidedAt,
        totalOdds: a.totalOdds,
        baseOdds: a.baseOdds,
      })),
    ),
  );
  await dropExposure(
    tx,
    exposed.filter((e) => !acceptedRows.has(e.betId)).map((e) => e.betId),
  );
  // only selections whose price moved are written (the common case writes none)
  const moved = accepts.flatMap(({ d }) =>
    acceptedRows.has(d.bet.row.id)
      ? d.bet.selections.flatMap((s) => {
          const odds = formatFeedOddValue(d.acceptedOdds[s.idx] as Rational);
          return s.odds === odds ? [] : [{ selection: s, odds }];
        })
      : [],
  );
  const movedSelections = new Map(
    (await setAcceptedOdds(tx, moved)).map((s) => [`${s.bet_id}/${s.idx}`, s] as const),
  );
  // builders: the combined odds accepted and the probabilities of the price decided on
  const builderWrites = accepts.flatMap(({ d }) =>
    acceptedRows.has(d.bet.row.id)
      ? d.bet.builders.map((b) => {
          const quote = d.builderQuotes?.[b.row.builder];
          return {
            betId: b.row.bet_id,
            builder: b.row.builder,
            odds: formatFeedOddValue(d.acceptedBuilderOdds?.[b.row.builder] ?? parseOddsColumn(b.row.odds)),
            probability: quote ? formatFeedOddValue(quote.probability) : b.row.probability,
            refundProbability: quote ? formatFeedOddValue(quote.refundProbability) : b.row.refund_probability,
          };
        })
      : [],
  );
  const movedBuilders = new Map(
    (await setAcceptedBuilderOdds(tx, builderWrites)).map((b) => [`${b.bet_id}/${b.builder}`, b] as const),
  );
  const betTimes = [];
  for (const { d } of accepts) {
    const row = acceptedRows.get(d.bet.row.id);
    if (!row) {
      // decided elsewhere: give back the claim (bonuses)
      if (hasBonus(d.bet.row)) await releaseBonuses(tx, d.bet.row.id, d.decidedAt);
      continue;
    }
    // the common case moved no selection and has no builder: the bet's lists as held
    const bet = {
      row,
      selections:
        movedSelections.size === 0
          ? d.bet.selections
          : d.bet.selections.map((s) => movedSelections.get(`${s.bet_id}/${s.idx}`) ?? s),
      builders:
        d.bet.builders.length === 0
          ? d.bet.builders
          : d.bet.builders.map((b) => ({
              ...b,
              row: movedBuilders.get(`${b.row.bet_id}/${b.row.builder}`) ?? b.row,
            })),
    };
    decided.set(row.id, bet);
    betTimes.push({
      whiteLabelId: row.white_label_id,
      playerId: row.player_id,
      sportEventIds: betSportEvents(bet),
      at: d.decidedAt,
    });
    callbacks.push({
      whiteLabelId: row.white_label_id,
      betId: row.id,
      path: CALLBACK_PATHS.accept,
      body: placeBody(bet),
      foreignParams: row.foreign_params,
    });
  }
  await recordBetTimes(tx, betTimes);

  const declinedRows = byId(
    await transitionBets(
      tx,
      'hold_requested',
      'declined',
      declines.map(({ d, restrictions }) => ({
        id: d.bet.row.id,
        row: d.bet.row,
        restrictions,
        decidedAt: d.decidedAt,
      })),
    ),
  );
  for (const { d, restrictions } of declines) {
    const row = declinedRows.get(d.bet.row.id);
    if (!row) continue;
    if (hasBonus(row)) await releaseBonuses(tx, row.id, d.decidedAt); // bonuses
    const bet = { ...d.bet, row };
    decided.set(row.id, bet);
    callbacks.push({
      whiteLabelId: row.white_label_id,
      betId: row.id,
      path: CALLBACK_PATHS.decline,
      body: declineBody(bet, restrictions),
      foreignParams: row.foreign_params,
    });
  }
  // each bet's /bet/place, before its /bet/accept or /bet/decline (their order, D10); written after the bets' changes
  // so that, like the recovery of interrupted placements, this transaction locks the bet before its outbox rows
  await recordSyncDeliveries(
    tx,
    items.map((d) => {
      const cb = d.place.callback;
      return {
        whiteLabelId: cb.whiteLabelId,
        betId: cb.betId,
        requestId: cb.requestId,
        path: cb.path,
        body: cb.body,
        foreignParams: cb.foreignParams,
        delivered: true,
        attempts: d.place.attempts,
        status: d.place.status,
        error: null,
        createdAt: new Date(d.bet.row.created_at),
      };
    }),
  );
  // sent with the commit: the callbacks' ids come with its answer
  const sent = await sendCallbacks(tx, callbacks, adopt?.lease);
  adopt?.enqueued.push(sent.enqueued);
  return items.map((d) => decided.get(d.bet.row.id));
}

function parseOddsColumn(v: string): Rational {
  return parseDecimal(v, { field: 'odds', maxDecimals: 12 });
}

function byId(rows: readonly BetRow[]): Map<string, BetRow> {
  return new Map(rows.map((r) => [r.id, r]));
}

/** What placement needs of the callback dispatcher to hand it the callbacks it just committed. */
export interface AdoptingDispatcher {
  leaseForNew(): { owner: string; ms: number } | undefined;
  adopt(rows: readonly EnqueuedCallback[]): void;
  kick(): void;
}

/**
 * Placement's writes through group commit: the holds (and the decisions) of the bets being placed at the same time
 * go to the database in one transaction, with one statement per table, instead of one transaction per bet
 * (docs/adr/0012-placement-group-commit.md). Each caller still gets its own bet, and a failing bet fails alone.
 */
export class PlacementWrites {
  private readonly holds: GroupCommit<HoldWrite, HeldBet>;
  private readonly decisions: GroupCommit<DecisionWrite, Bet | undefined>;
  private readonly clientKeys: GroupCommit<ClientKey, string | undefined>;

  constructor(
    database: Database,
    opts: { maxBatch?: number; maxConcurrent?: number; dispatcher?: AdoptingDispatcher } = {},
  ) {
    const db = database.db;
    const { dispatcher, ...batching } = opts;
    this.holds = new GroupCommit((items) => inTransaction(db, (tx) => writeHolds(tx, items)), batching);
    // with a dispatcher, the decisions' callbacks are born leased to it and delivered once committed: no claim, and
    // no kick (a claim would find nothing); without a lease (the dispatcher is stopped) it is kicked as usual
    this.decisions = new GroupCommit(async (items) => {
      if (!dispatcher) return inTransaction(db, (tx) => writeDecisions(tx, items));
      const sent: Promise<EnqueuedCallback[]>[] = [];
      const lease = dispatcher.leaseForNew();
      const bets = await inTransaction(db, (tx) => {
        sent.length = 0;
        return writeDecisions(tx, items, { lease, enqueued: sent });
      });
      const enqueued = (await Promise.all(sent)).flat();
      if (lease) dispatcher.adopt(enqueued);
      else if (enqueued.length > 0) dispatcher.kick();
      return bets;
    }, batching);
    this.clientKeys = new GroupCommit((keys) => findBetsByClientKey(db, keys), { maxConcurrent: 4 });
  }

  /** The bet already placed with a client idempotency key (the reads of requests arriving together share one). */
  findByClientKey(key: ClientKey): Promise<string | undefined> {
    return this.clientKeys.submit(key);
  }

  /** Forms a bet in `hold_requested` with its `/bet/place` (see {@link writeHolds}). */
  hold(bet: HoldWrite): Promise<HeldBet> {
    return this.holds.submit(bet);
  }

  /** Accepts or declines a held bet with its callback (see {@link writeDecisions}). */
  decide(decision: DecisionWrite): Promise<Bet | undefined> {
    return this.decisions.submit(decision);
  }
}
