import type { OutcomeKey } from '@bookie/core';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type {
  BetExposureTable,
  PlayerRiskTable,
  RiskDelayTable,
  RiskExposureTable,
  RiskGroupTable,
  RiskLimitTable,
} from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** An exposure row as stored. */
export type ExposureRow = Selectable<RiskExposureTable>;
/** A bet's leg exposure row. */
export type BetExposureRow = Selectable<BetExposureTable>;
/** A limit row. */
export type LimitRow = Selectable<RiskLimitTable>;
/** A risk group row. */
export type GroupRow = Selectable<RiskGroupTable>;
/** A player's risk row. */
export type PlayerRiskRow = Selectable<PlayerRiskTable>;
/** A bet delay row. */
export type DelayRow = Selectable<RiskDelayTable>;

/**
 * Serialises exposure changes for the rest of the transaction: the one advisory lock the bet state trigger takes
 * when it moves exposure (a single key, so no two transactions take locks in different orders).
 */
export async function lockExposure(tx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('risk_exposure')::bigint)`.execute(tx);
}

/**
 * Takes the exposure lock ({@link lockExposure}) and reads the exposure of the white label's outcomes as it is once
 * the lock is held, in one round trip (the `risk_locked_exposure` function). Outcomes without a row are absent.
 */
export async function readLockedExposure(
  tx: Executor,
  whiteLabelId: string,
  keys: readonly OutcomeKey[],
): Promise<Array<Pick<ExposureRow, 'sport_event_id' | 'market_id' | 'odd_id' | 'phase' | 'amount'>>> {
  const res = await sql<Pick<ExposureRow, 'sport_event_id' | 'market_id' | 'odd_id' | 'phase' | 'amount'>>`
    select * from risk_locked_exposure(${whiteLabelId}, ${keys.map((k) => k.sport_event_id)}::text[],
      ${keys.map((k) => k.market_id)}::text[], ${keys.map((k) => k.odd_id)}::text[],
      ${keys.map((k) => k.phase)}::text[])`.execute(tx);
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

/**
 * The exposure of the white label's outcomes and the player's group, in one statement (placement reads both for
 * every bet, so they share a round trip).
 */
export async function readRiskFacts(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
  keys: readonly OutcomeKey[],
): Promise<RiskFacts> {
  const res = await sql<{
    sport_event_id: string | null;
    market_id: string | null;
    odd_id: string | null;
    phase: 'live' | 'prematch' | null;
    amount: string | null;
    group_name: string | null;
  }>`
    select r.sport_event_id, r.market_id, r.odd_id, r.phase, r.amount::text as amount, null::text as group_name
    ${exposureRowsOf(whiteLabelId, keys)}
    union all
    select null, null, null, null, null, p.group_name
    from player_risk p where p.white_label_id = ${whiteLabelId} and p.player_id = ${playerId}`.execute(db);
  const exposure: RiskFacts['exposure'] = [];
  let groupName: string | undefined;
  for (const r of res.rows) {
    if (r.group_name !== null) groupName = r.group_name;
    else
      exposure.push({
        sport_event_id: r.sport_event_id as string,
        market_id: r.market_id as string,
        odd_id: r.odd_id as string,
        phase: r.phase as 'live' | 'prematch',
        amount: r.amount as string,
      });
  }
  return { exposure, groupName };
}

/** Writes the leg exposures of bets being accepted (before their state changes: the trigger then counts them). */
export async function insertBetExposure(tx: Executor, rows: readonly BetExposureRow[]): Promise<void> {
  if (rows.length === 0) return;
  // one statement with one array per column: its text does not grow with the batch
  await sql`
    insert into bet_exposure
      (bet_id, idx, white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, eur_rate)
    select * from unnest(${rows.map((r) => r.bet_id)}::uuid[], ${rows.map((r) => r.idx)}::int4[],
      ${rows.map((r) => r.white_label_id)}::text[], ${rows.map((r) => r.phase)}::text[],
      ${rows.map((r) => r.sport_event_id)}::text[], ${rows.map((r) => r.market_id)}::text[],
      ${rows.map((r) => r.odd_id)}::text[], ${rows.map((r) => r.market_type_id)}::text[],
      ${rows.map((r) => r.amount)}::numeric[], ${rows.map((r) => r.eur_rate)}::numeric[])`.execute(tx);
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

/**
 * The open bets with the stake their exposure stands for (less every accepted cash-out, platform and foreign), their legs' odds and
 * stored leg exposures, a page at a time by id (recompute from bets).
 */
export async function openBetsWithExposure(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<
  Array<{
    id: string;
    stake: string;
    total_odds: string;
    odds: string[];
    amounts: (string | null)[];
    rate: string | null;
  }>
> {
  const res = await sql<{
    id: string;
    stake: string;
    total_odds: string;
    odds: string[];
    amounts: (string | null)[];
    rate: string | null;
  }>`
    select b.id, (b.stake - b.cashed_out_stake - b.foreign_cashed_out)::text as stake, b.total_odds::text as total_odds,
           array_agg(s.odds::text order by s.idx) as odds,
           array_agg(e.amount::text order by s.idx) as amounts,
           max(e.eur_rate)::text as rate
    from bet b
    join bet_selection s on s.bet_id = b.id
    left join bet_exposure e on e.bet_id = s.bet_id and e.idx = s.idx
    where b.state in ('accepted', 'unsettled') and (${afterId}::uuid is null or b.id > ${afterId}::uuid)
    group by b.id
    order by b.id
    limit ${limit}`.execute(db);
  return res.rows;
}

/** The white label's liability limits (D38). */
export function readLimits(db: Executor, whiteLabelId?: string): Promise<LimitRow[]> {
  let q = db.selectFrom('risk_limit').selectAll();
  if (whiteLabelId) q = q.where('white_label_id', '=', whiteLabelId);
  return q.orderBy('white_label_id').orderBy('market_type_id').orderBy('phase').execute();
}

/** Sets (or with null removes) one liability limit. */
export async function writeLimit(
  tx: Executor,
  row: {
    whiteLabelId: string;
    marketTypeId: string;
    phase: 'live' | 'prematch';
    liabilityEur: string | null;
  },
): Promise<void> {
  if (row.liabilityEur === null) {
    await tx
      .deleteFrom('risk_limit')
      .where('white_label_id', '=', row.whiteLabelId)
      .where('market_type_id', '=', row.marketTypeId)
      .where('phase', '=', row.phase)
      .execute();
    return;
  }
  await tx
    .insertInto('risk_limit')
    .values({
      white_label_id: row.whiteLabelId,
      market_type_id: row.marketTypeId,
      phase: row.phase,
      liability_eur: row.liabilityEur,
    })
    .onConflict((oc) =>
      oc
        .columns(['white_label_id', 'market_type_id', 'phase'])
        .doUpdateSet({ liability_eur: row.liabilityEur as string, updated_at: sql`now()` }),
    )
    .execute();
}

/** Every risk group. */
export function readGroups(db: Executor): Promise<GroupRow[]> {
  return db.selectFrom('risk_group').selectAll().orderBy('name').execute();
}

/** Creates or changes a risk group. */
export async function writeGroup(
  tx: Executor,
  row: { name: string; stakeFactor: string; maxPayoutEur: string | null },
): Promise<void> {
  await tx
    .insertInto('risk_group')
    .values({ name: row.name, stake_factor: row.stakeFactor, max_payout_eur: row.maxPayoutEur })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        stake_factor: row.stakeFactor,
        max_payout_eur: row.maxPayoutEur,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/** A player's risk row, if any. */
export function readPlayerRisk(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
): Promise<PlayerRiskRow | undefined> {
  return db
    .selectFrom('player_risk')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
}

/**
 * Records a player's first request (spec 03 VIP): inserts the row with `group` when none exists; an existing row is
 * left alone. Returns the row as it is now.
 */
export async function ensurePlayerRisk(
  tx: Executor,
  row: { whiteLabelId: string; playerId: string; group: string; source: PlayerRiskRow['group_source'] },
): Promise<PlayerRiskRow> {
  await tx
    .insertInto('player_risk')
    .values({
      white_label_id: row.whiteLabelId,
      player_id: row.playerId,
      group_name: row.group,
      group_source: row.source,
    })
    .onConflict((oc) => oc.columns(['white_label_id', 'player_id']).doNothing())
    .execute();
  return (await readPlayerRisk(tx, row.whiteLabelId, row.playerId)) as PlayerRiskRow;
}

/** The key of a white label's player in maps of players' groups. */
export const playerRiskKey = (whiteLabelId: string, playerId: string) => `${whiteLabelId}\u0000${playerId}`;

/** A player's first request as a placement records it (spec 03 VIP): the group it would start in. */
export interface FirstRequest {
  whiteLabelId: string;
  playerId: string;
  group: string;
  source: PlayerRiskRow['group_source'];
}

/**
 * Records the first request of every player among `rows` that has none yet (an existing row is left alone), and
 * answers every listed player's group as it is now, keyed by {@link playerRiskKey}. One statement for a
 * whole batch of holds; a row another transaction inserted at the same moment is read again after it.
 */
export async function recordFirstRequests(
  tx: Executor,
  rows: readonly FirstRequest[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rows.length === 0) return out;
  const key = playerRiskKey;
  const res = await sql<{ white_label_id: string; player_id: string; group_name: string }>`
    with v as (
      select * from unnest(${rows.map((r) => r.whiteLabelId)}::text[], ${rows.map((r) => r.playerId)}::text[],
        ${rows.map((r) => r.group)}::text[], ${rows.map((r) => r.source)}::text[])
        as v(white_label_id, player_id, group_name, group_source)
    ), ins as (
      insert into player_risk (white_label_id, player_id, group_name, group_source)
      select distinct on (white_label_id, player_id) white_label_id, player_id, group_name, group_source from v
      on conflict (white_label_id, player_id) do nothing
      returning white_label_id, player_id, group_name
    )
    select white_label_id, player_id, group_name from ins
    union all
    select p.white_label_id, p.player_id, p.group_name
    from player_risk p where (p.white_label_id, p.player_id) in (select white_label_id, player_id from v)`.execute(
    tx,
  );
  for (const r of res.rows) out.set(key(r.white_label_id, r.player_id), r.group_name);
  for (const r of rows) {
    if (out.has(key(r.whiteLabelId, r.playerId))) continue;
    const now = await readPlayerRisk(tx, r.whiteLabelId, r.playerId);
    out.set(key(r.whiteLabelId, r.playerId), now?.group_name ?? r.group);
  }
  return out;
}

/** Sets a player's group (partner or operator). */
export async function setPlayerGroup(
  tx: Executor,
  row: { whiteLabelId: string; playerId: string; group: string; source: PlayerRiskRow['group_source'] },
): Promise<PlayerRiskRow> {
  const out = await tx
    .insertInto('player_risk')
    .values({
      white_label_id: row.whiteLabelId,
      player_id: row.playerId,
      group_name: row.group,
      group_source: row.source,
    })
    .onConflict((oc) =>
      oc
        .columns(['white_label_id', 'player_id'])
        .doUpdateSet({ group_name: row.group, group_source: row.source, updated_at: sql`now()` }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return out;
}

/** Adds closing-line values of newly settled legs to players' sums (D40). */
export async function addClosingLineValues(
  tx: Executor,
  items: ReadonlyArray<{ whiteLabelId: string; playerId: string; sum: string; count: number }>,
): Promise<void> {
  for (const i of items) {
    await sql`
      insert into player_risk (white_label_id, player_id, group_name, group_source, clv_sum, clv_count)
      values (${i.whiteLabelId}, ${i.playerId}, 'default', 'default', ${i.sum}::numeric, ${i.count})
      on conflict (white_label_id, player_id) do update
        set clv_sum = player_risk.clv_sum + excluded.clv_sum, clv_count = player_risk.clv_count + excluded.clv_count,
            updated_at = now()`.execute(tx);
  }
}

/** Every bet delay level (D34). */
export function readDelays(db: Executor): Promise<DelayRow[]> {
  return db.selectFrom('risk_delay').selectAll().orderBy('level').orderBy('key').orderBy('phase').execute();
}

/** Sets (or with null removes) one bet delay level. */
export async function writeDelay(
  tx: Executor,
  row: { level: DelayRow['level']; key: string; phase: 'live' | 'prematch'; seconds: string | null },
): Promise<void> {
  if (row.seconds === null) {
    await tx
      .deleteFrom('risk_delay')
      .where('level', '=', row.level)
      .where('key', '=', row.key)
      .where('phase', '=', row.phase)
      .execute();
    return;
  }
  await tx
    .insertInto('risk_delay')
    .values({ level: row.level, key: row.key, phase: row.phase, seconds: row.seconds })
    .onConflict((oc) =>
      oc
        .columns(['level', 'key', 'phase'])
        .doUpdateSet({ seconds: row.seconds as string, updated_at: sql`now()` }),
    )
    .execute();
}

/** Writes a risk settings change to the audit log. */
export async function auditRisk(
  tx: Executor,
  row: { actor: string; action: string; subject: string; details: Record<string, unknown> },
): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({
      actor: row.actor,
      action: row.action,
      subject: row.subject,
      details: JSON.stringify(row.details),
    })
    .execute();
}

/** Records the closing price of every odd of a sport event (D40), from its last snapshot before it started. */
export async function recordClosingOdds(
  tx: Executor,
  event: { id: string; markets: Record<string, { odds: Record<string, { value: string }> }> },
): Promise<void> {
  const rows = Object.entries(event.markets).flatMap(([marketId, m]) =>
    Object.entries(m.odds).map(([oddId, o]) => ({
      sport_event_id: event.id,
      market_id: marketId,
      odd_id: oddId,
      odds: o.value,
    })),
  );
  if (rows.length === 0) return;
  await tx
    .insertInto('risk_closing_odds')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['sport_event_id', 'market_id', 'odd_id'])
        .doUpdateSet((eb) => ({ odds: eb.ref('excluded.odds') })),
    )
    .execute();
}

/** The closing prices of the given odds (D40), keyed `sport_event_id/market_id/odd_id` as JSON. */
export async function readClosingOdds(
  db: Executor,
  keys: ReadonlyArray<{ sport_event_id: string; market_id: string; odd_id: string }>,
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const res = await sql<{ sport_event_id: string; market_id: string; odd_id: string; odds: string }>`
    select c.sport_event_id, c.market_id, c.odd_id, c.odds::text as odds from risk_closing_odds c
    join unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                ${keys.map((k) => k.odd_id)}::text[]) as k(sport_event_id, market_id, odd_id)
      on c.sport_event_id = k.sport_event_id and c.market_id = k.market_id and c.odd_id = k.odd_id`.execute(
    db,
  );
  return new Map(res.rows.map((r) => [JSON.stringify([r.sport_event_id, r.market_id, r.odd_id]), r.odds]));
}

/**
 * What odds shading needs to know first about outcomes whose exposure changed (D39), in one statement: their
 * exposure rows (every white label and phase) and which of them are shaded now.
 */
export async function readShadingCandidates(
  db: Executor,
  keys: ReadonlyArray<{ sport_event_id: string; market_id: string; odd_id: string }>,
): Promise<{
  exposure: ExposureRow[];
  shaded: Array<{ sport_event_id: string; market_id: string; odd_id: string }>;
}> {
  if (keys.length === 0) return { exposure: [], shaded: [] };
  const res = await sql<ExposureRow & { shaded: boolean }>`
    with k as (
      select * from unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                           ${keys.map((k) => k.odd_id)}::text[]) as k(sport_event_id, market_id, odd_id)
    )
    select r.white_label_id, r.phase, r.sport_event_id, r.market_id, r.odd_id, r.market_type_id, r.amount,
           r.max_amount, false as shaded
    from risk_exposure r
    join k on r.sport_event_id = k.sport_event_id and r.market_id = k.market_id and r.odd_id = k.odd_id
    union all
    select null, null, s.sport_event_id, s.market_id, s.odd_id, null, null, null, true from risk_shading s
    join k on s.sport_event_id = k.sport_event_id and s.market_id = k.market_id and s.odd_id = k.odd_id`.execute(
    db,
  );
  const exposure: ExposureRow[] = [];
  const shaded: Array<{ sport_event_id: string; market_id: string; odd_id: string }> = [];
  for (const { shaded: isShaded, ...row } of res.rows) {
    if (isShaded)
      shaded.push({ sport_event_id: row.sport_event_id, market_id: row.market_id, odd_id: row.odd_id });
    else exposure.push(row);
  }
  return { exposure, shaded };
}

/** The shading rows (D39) of outcomes. */
export async function readShading(
  db: Executor,
  keys: ReadonlyArray<{ sport_event_id: string; market_id: string; odd_id: string }>,
): Promise<
  Array<{ sport_event_id: string; market_id: string; odd_id: string; base_odds: string; shaded_odds: string }>
> {
  if (keys.length === 0) return [];
  const res = await sql<{
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    base_odds: string;
    shaded_odds: string;
  }>`
    select s.sport_event_id, s.market_id, s.odd_id, s.base_odds::text as base_odds, s.shaded_odds::text as shaded_odds
    from risk_shading s
    join unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                ${keys.map((k) => k.odd_id)}::text[]) as k(sport_event_id, market_id, odd_id)
      on s.sport_event_id = k.sport_event_id and s.market_id = k.market_id and s.odd_id = k.odd_id`.execute(
    db,
  );
  return res.rows;
}

/** Records an outcome as shaded (base and shaded odds), or with null as back at its base. */
export async function writeShading(
  tx: Executor,
  key: { sport_event_id: string; market_id: string; odd_id: string },
  odds: { base: string; shaded: string } | null,
): Promise<void> {
  if (odds === null) {
    await tx
      .deleteFrom('risk_shading')
      .where('sport_event_id', '=', key.sport_event_id)
      .where('market_id', '=', key.market_id)
      .where('odd_id', '=', key.odd_id)
      .execute();
    return;
  }
  await tx
    .insertInto('risk_shading')
    .values({
      sport_event_id: key.sport_event_id,
      market_id: key.market_id,
      odd_id: key.odd_id,
      base_odds: odds.base,
      shaded_odds: odds.shaded,
    })
    .onConflict((oc) =>
      oc
        .columns(['sport_event_id', 'market_id', 'odd_id'])
        .doUpdateSet({ base_odds: odds.base, shaded_odds: odds.shaded, updated_at: sql`now()` }),
    )
    .execute();
}

/**
 * Counts one publication of lowered odds for an outcome and keeps the lowest published, in the shader's transaction.
 * The history stays when the odds are given back their base.
 */
export async function recordShadingPublished(
  tx: Executor,
  key: { sport_event_id: string; market_id: string; odd_id: string; market_type_id: string },
  odds: { base: string; shaded: string },
): Promise<void> {
  await sql`
    insert into risk_shading_history
      (sport_event_id, market_id, odd_id, market_type_id, base_odds, lowest_odds, publications)
    values (${key.sport_event_id}, ${key.market_id}, ${key.odd_id}, ${key.market_type_id},
            ${odds.base}::numeric, ${odds.shaded}::numeric, 1)
    on conflict (sport_event_id, market_id, odd_id) do update set
      publications = risk_shading_history.publications + 1,
      base_odds = excluded.base_odds,
      lowest_odds = least(risk_shading_history.lowest_odds, excluded.lowest_odds),
      last_at = now()`.execute(tx);
}

/** One outcome's shading history, as `GET /admin/risk/shading` lists it. */
export interface ShadingHistoryRow {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  market_type_id: string;
  base_odds: string;
  lowest_odds: string;
  publications: number;
}

/** Outcomes whose odds the shader lowered at least once, most published first. */
export async function listShadingHistory(
  db: Executor,
  filter: { sportEventId?: string; limit?: number },
): Promise<ShadingHistoryRow[]> {
  let q = db
    .selectFrom('risk_shading_history')
    .select([
      'sport_event_id',
      'market_id',
      'odd_id',
      'market_type_id',
      sql<string>`base_odds::text`.as('base_odds'),
      sql<string>`lowest_odds::text`.as('lowest_odds'),
      'publications',
    ]);
  if (filter.sportEventId) q = q.where('sport_event_id', '=', filter.sportEventId);
  return q
    .orderBy('publications', 'desc')
    .orderBy('sport_event_id')
    .orderBy('market_id')
    .orderBy('odd_id')
    .limit(filter.limit ?? 1000)
    .execute();
}
