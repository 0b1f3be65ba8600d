import type { OutcomeKey } from '@bookie/core';
import type { Selectable } from 'kysely';
import { CompiledQuery, sql } from 'kysely';
import { pgArray } from '../../db/pg-array.js';
import type { BetExposureTable, RiskExposureTable } from '../../db/schema.js';
import { type Executor, sendQuery, sendWrite } from '../../db/transaction.js';

/** An exposure row as stored. */
export type ExposureRow = Selectable<RiskExposureTable>;

/** A bet's leg exposure row. */
export type BetExposureRow = Selectable<BetExposureTable>;

/**
 * Locks the exposure of the outcomes of `betIds`' legs for the rest of the transaction: one advisory lock per outcome,
 * taken in ascending key order in one statement (`risk_lock_outcomes`), the same locks the bet state trigger takes
 * when it moves exposure. A transaction that will move the exposure of several bets takes them all here first, so
 * its locks are taken in one ordered acquisition (two such transactions cannot wait on each other in a cycle).
 */
export async function lockBetOutcomes(tx: Executor, betIds: readonly string[]): Promise<void> {
  if (betIds.length === 0) return;
  await sql`select risk_lock_outcomes(array(
      select risk_outcome_lock_key(white_label_id, sport_event_id, market_id, odd_id, phase)
      from bet_exposure where bet_id = any(${[...betIds]}::uuid[])))`.execute(tx);
}

/** Locks the exposure of outcomes of several white labels at once, in one ordered acquisition. */
export async function lockOutcomes(
  tx: Executor,
  outcomes: ReadonlyArray<{ whiteLabelId: string; key: OutcomeKey }>,
): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`select risk_lock_outcomes(array(
      select risk_outcome_lock_key(k.wl, k.e, k.m, k.o, k.p)
      from unnest(${outcomes.map((o) => o.whiteLabelId)}::text[], ${outcomes.map((o) => o.key.sport_event_id)}::text[],
                  ${outcomes.map((o) => o.key.market_id)}::text[], ${outcomes.map((o) => o.key.odd_id)}::text[],
                  ${outcomes.map((o) => o.key.phase)}::text[]) as k(wl, e, m, o, p)))`.execute(tx);
}

/** The locked exposure read of {@link readLockedExposure}, prepared once. */
const READ_LOCKED_EXPOSURE =
  'select * from risk_locked_exposure($1, $2::text[], $3::text[], $4::text[], $5::text[])';

/**
 * Locks the exposure of the white label's outcomes (one lock per outcome, in key order; see {@link lockBetOutcomes})
 * and reads it as it is once the locks are held, in one round trip (the `risk_locked_exposure` function). Outcomes
 * without a row are absent.
 */
export async function readLockedExposure(
  tx: Executor,
  whiteLabelId: string,
  keys: readonly OutcomeKey[],
): Promise<Array<Pick<ExposureRow, 'sport_event_id' | 'market_id' | 'odd_id' | 'phase' | 'amount'>>> {
  const res = await tx.executeQuery<
    Pick<ExposureRow, 'sport_event_id' | 'market_id' | 'odd_id' | 'phase' | 'amount'>
  >(
    CompiledQuery.raw(READ_LOCKED_EXPOSURE, [
      whiteLabelId,
      pgArray(keys.map((k) => k.sport_event_id)),
      pgArray(keys.map((k) => k.market_id)),
      pgArray(keys.map((k) => k.odd_id)),
      pgArray(keys.map((k) => k.phase)),
    ]),
  );
  return res.rows;
}

/** `from … where …` of the exposure rows (alias `r`) of a white label's outcomes: the reads below share it. */
function exposureRowsOf(whiteLabelId: string, keys: readonly OutcomeKey[]) {
  return sql`from risk_exposure r
    join unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                ${keys.map((k) => k.odd_id)}::text[], ${keys.map((k) => k.phase)}::text[])
      as k(sport_event_id, market_id, odd_id, phase)
      on r.sport_event_id = k.sport_event_id and r.market_id = k.market_id and r.odd_id = k.odd_id
     and r.phase = k.phase
    where r.white_label_id = ${whiteLabelId}`;
}

/** The stored exposure (EUR, decimal strings) of the white label's outcomes; outcomes without a row are absent. */
export async function readExposure(
  db: Executor,
  whiteLabelId: string,
  keys: readonly OutcomeKey[],
): Promise<ExposureRow[]> {
  if (keys.length === 0) return [];
  const res = await sql<ExposureRow>`select r.* ${exposureRowsOf(whiteLabelId, keys)}`.execute(db);
  return res.rows;
}

/** What a bet's decision reads of the risk book (D37, D38): its outcomes' exposure and the player's group. */
export interface RiskFacts {
  /** Stored exposure (EUR, decimal strings) of the outcomes that have a row. */
  exposure: Array<Pick<ExposureRow, 'sport_event_id' | 'market_id' | 'odd_id' | 'phase' | 'amount'>>;
  /** The player's group, when the player has made a request before. */
  groupName: string | undefined;
}

/** One bet's request for {@link sendRiskFactsOfMany}. */
export interface RiskFactsKey {
  whiteLabelId: string;
  playerId: string;
  keys: readonly OutcomeKey[];
}

/** The read of {@link sendRiskFactsOfMany}: one text whatever the count (every value travels in arrays), prepared once. */
const READ_RISK_FACTS = `
  select k.i, r.sport_event_id, r.market_id, r.odd_id, r.phase, r.amount::text as amount, null::text as group_name
  from unnest($1::int4[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
    as k(i, white_label_id, sport_event_id, market_id, odd_id, phase)
  join risk_exposure r
    on r.white_label_id = k.white_label_id and r.sport_event_id = k.sport_event_id
   and r.market_id = k.market_id and r.odd_id = k.odd_id and r.phase = k.phase
  union all
  select p.i, null, null, null, null, null, pr.group_name
  from unnest($7::int4[], $8::text[], $9::text[]) as p(i, white_label_id, player_id)
  join player_risk pr on pr.white_label_id = p.white_label_id and pr.player_id = p.player_id`;

/** A row of {@link READ_RISK_FACTS}: an exposure row of item `i`, or its player's group. */
interface RiskFactsRow {
  i: number;
  sport_event_id: string | null;
  market_id: string | null;
  odd_id: string | null;
  phase: 'live' | 'prematch' | null;
  amount: string | null;
  group_name: string | null;
}

/**
 * The risk facts of several bets (their outcomes' exposure and their players' groups) in one statement: the
 * decisions arriving together, in the order of `items`. One statement text whatever the count: every value travels
 * in arrays. Sent without waiting inside a transaction (`sendQuery`): resolves once the read is on its way, to its
 * answer's promise, so that the statements sent after it share its round trip.
 */
export async function sendRiskFactsOfMany(
  db: Executor,
  items: readonly RiskFactsKey[],
): Promise<{ facts: Promise<RiskFacts[]> }> {
  if (items.length === 0) return { facts: Promise.resolve([]) };
  const i: number[] = [];
  const wl: string[] = [];
  const events: string[] = [];
  const markets: string[] = [];
  const odds: string[] = [];
  const phases: string[] = [];
  items.forEach((it, n) => {
    for (const k of it.keys) {
      i.push(n);
      wl.push(it.whiteLabelId);
      events.push(k.sport_event_id);
      markets.push(k.market_id);
      odds.push(k.odd_id);
      phases.push(k.phase);
    }
  });
  const sent = await sendQuery(
    db,
    CompiledQuery.raw(READ_RISK_FACTS, [
      pgArray(i),
      pgArray(wl),
      pgArray(events),
      pgArray(markets),
      pgArray(odds),
      pgArray(phases),
      pgArray(items.map((_, n) => n)),
      pgArray(items.map((it) => it.whiteLabelId)),
      pgArray(items.map((it) => it.playerId)),
    ]),
    (rows: RiskFactsRow[]) => riskFactsOf(items, rows),
  );
  return { facts: sent.rows };
}

/** Each item's facts from the rows read. */
function riskFactsOf(items: readonly RiskFactsKey[], rows: readonly RiskFactsRow[]): RiskFacts[] {
  const out: RiskFacts[] = items.map(() => ({ exposure: [], groupName: undefined }));
  for (const r of rows) {
    const f = out[r.i] as RiskFacts;
    if (r.group_name !== null) f.groupName = r.group_name;
    else
      f.exposure.push({
        sport_event_id: r.sport_event_id as string,
        market_id: r.market_id as string,
        odd_id: r.odd_id as string,
        phase: r.phase as 'live' | 'prematch',
        amount: r.amount as string,
      });
  }
  return out;
}

/** The insert of bets' leg exposures: one array per column, so its text does not grow with the batch. */
const INSERT_BET_EXPOSURE = `
  insert into bet_exposure
    (bet_id, idx, white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, eur_rate)
  select * from unnest($1::uuid[], $2::int4[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[], $9::numeric[], $10::numeric[])`;

/** Writes the leg exposures of bets being accepted (before their state changes: the trigger then counts them). */
export async function insertBetExposure(tx: Executor, rows: readonly BetExposureRow[]): Promise<void> {
  if (rows.length === 0) return;
  const params = [
    pgArray(rows.map((r) => r.bet_id)),
    pgArray(rows.map((r) => r.idx)),
    pgArray(rows.map((r) => r.white_label_id)),
    pgArray(rows.map((r) => r.phase)),
    pgArray(rows.map((r) => r.sport_event_id)),
    pgArray(rows.map((r) => r.market_id)),
    pgArray(rows.map((r) => r.odd_id)),
    pgArray(rows.map((r) => r.market_type_id)),
    pgArray(rows.map((r) => r.amount)),
    pgArray(rows.map((r) => r.eur_rate)),
  ];
  await sendWrite(tx, CompiledQuery.raw(INSERT_BET_EXPOSURE, params));
}

/** Drops the leg exposures of bets that were not accepted after all (decided elsewhere first). */
export async function deleteBetExposure(tx: Executor, betIds: readonly string[]): Promise<void> {
  if (betIds.length === 0) return;
  await tx
    .deleteFrom('bet_exposure')
    .where('bet_id', 'in', [...betIds])
    .execute();
}

/** Stored exposure rows, filtered by white label, sport event and market; largest first. */
export async function listExposure(
  db: Executor,
  filter: { whiteLabelId?: string; sportEventId?: string; marketId?: string; limit?: number },
): Promise<ExposureRow[]> {
  let q = db.selectFrom('risk_exposure').selectAll();
  if (filter.whiteLabelId) q = q.where('white_label_id', '=', filter.whiteLabelId);
  if (filter.sportEventId) q = q.where('sport_event_id', '=', filter.sportEventId);
  if (filter.marketId) q = q.where('market_id', '=', filter.marketId);
  return q
    .orderBy('amount', 'desc')
    .orderBy('sport_event_id')
    .orderBy('market_id')
    .orderBy('odd_id')
    .orderBy('phase')
    .limit(filter.limit ?? 1000)
    .execute();
}

/** Every stored exposure row next to Σ of its open bets' leg exposures, where they differ (D37 recompute). */
export async function exposureDifferences(db: Executor): Promise<
  Array<{
    key: Omit<ExposureRow, 'amount' | 'max_amount' | 'market_type_id'>;
    stored: string;
    fromBets: string;
  }>
> {
  const res = await sql<{
    white_label_id: string;
    phase: 'live' | 'prematch';
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    stored: string;
    from_bets: string;
  }>`
    with open as (
      select e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id, sum(e.amount) as amount
      from bet_exposure e join bet b on b.id = e.bet_id
      where b.state in ('accepted', 'unsettled')
      group by 1, 2, 3, 4, 5
    )
    select coalesce(r.white_label_id, o.white_label_id) as white_label_id, coalesce(r.phase, o.phase) as phase,
           coalesce(r.sport_event_id, o.sport_event_id) as sport_event_id,
           coalesce(r.market_id, o.market_id) as market_id, coalesce(r.odd_id, o.odd_id) as odd_id,
           coalesce(r.amount, 0)::text as stored, coalesce(o.amount, 0)::text as from_bets
    from risk_exposure r
    full outer join open o on o.white_label_id = r.white_label_id and o.phase = r.phase
      and o.sport_event_id = r.sport_event_id and o.market_id = r.market_id and o.odd_id = r.odd_id
    where coalesce(r.amount, 0) <> coalesce(o.amount, 0)
    order by 1, 3, 4, 5, 2`.execute(db);
  return res.rows.map((r) => ({
    key: {
      white_label_id: r.white_label_id,
      phase: r.phase,
      sport_event_id: r.sport_event_id,
      market_id: r.market_id,
      odd_id: r.odd_id,
    },
    stored: r.stored,
    fromBets: r.from_bets,
  }));
}

/** An open bet as {@link openBetsWithExposure} reads it (amounts and odds as decimal strings, one per leg). */
export interface OpenBetExposure {
  id: string;
  stake: string;
  total_odds: string;
  odds: string[];
  builders: (number | null)[];
  amounts: (string | null)[];
  rate: string | null;
}

/**
 * The open bets with the stake their exposure stands for (less every accepted cash-out, platform and foreign), their legs' odds and
 * stored leg exposures, a page at a time by id (recompute from bets). An inner leg of a builder shows its builder's
 * combined odds and index (`builders`; null for any other selection): see {@link legUnits}.
 */
export async function openBetsWithExposure(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<OpenBetExposure[]> {
  const res = await sql<OpenBetExposure>`
    select b.id, (b.stake - b.cashed_out_stake - b.foreign_cashed_out)::text as stake, b.total_odds::text as total_odds,
           array_agg(coalesce(bb.odds, s.odds)::text order by s.idx) as odds,
           array_agg(s.builder order by s.idx) as builders,
           array_agg(e.amount::text order by s.idx) as amounts,
           max(e.eur_rate)::text as rate
    from bet b
    join bet_selection s on s.bet_id = b.id
    left join bet_builder bb on bb.bet_id = s.bet_id and bb.builder = s.builder
    left join bet_exposure e on e.bet_id = s.bet_id and e.idx = s.idx
    where b.state in ('accepted', 'unsettled') and (${afterId}::uuid is null or b.id > ${afterId}::uuid)
    group by b.id
    order by b.id
    limit ${limit}`.execute(db);
  return res.rows;
}
