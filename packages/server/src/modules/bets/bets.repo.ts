import { sql } from 'kysely';
import type { BetState } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { Bet, BetRow, SelectionRow } from './bet.js';

/** A new bet and its selections, as placement creates them. */
export interface NewBet {
  id: string;
  whiteLabelId: string;
  playerId: string;
  currency: string;
  betType: 'single' | 'express' | 'system';
  systemSizes: number[];
  stake: string;
  oddsStrategy: number;
  baseOdds: string;
  totalOdds: string;
  freebetId: string | null;
  insuranceId: string | null;
  boostId: string | null;
  foreignParams: Record<string, unknown>;
  sessionTokenHash: string | null;
  clientKey: string | null;
  createdAt: Date;
  placementDeadline: Date;
  selections: Array<{
    sportEventId: string;
    marketId: string;
    oddId: string;
    requestedOdds: string;
    odds: string;
    oddUpdatedAt: Date;
    matchStatus: number;
    eventInfo: Record<string, unknown>;
  }>;
}

/** Inserts a bet in `hold_requested` with its selections; returns it as stored (one round trip per table). */
export async function insertBet(tx: Executor, b: NewBet): Promise<Bet> {
  const row = await tx
    .insertInto('bet')
    .values({
      id: b.id,
      white_label_id: b.whiteLabelId,
      player_id: b.playerId,
      currency: b.currency,
      bet_type: b.betType,
      system_sizes: JSON.stringify(b.systemSizes),
      stake: b.stake,
      odds_strategy: b.oddsStrategy,
      base_odds: b.baseOdds,
      total_odds: b.totalOdds,
      state: 'hold_requested',
      freebet_id: b.freebetId,
      insurance_id: b.insuranceId,
      boost_id: b.boostId,
      foreign_params: JSON.stringify(b.foreignParams),
      session_token_hash: b.sessionTokenHash,
      client_key: b.clientKey,
      created_at: b.createdAt,
      placement_deadline: b.placementDeadline,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const selections = await tx
    .insertInto('bet_selection')
    .values(
      b.selections.map((s, idx) => ({
        bet_id: b.id,
        idx,
        sport_event_id: s.sportEventId,
        market_id: s.marketId,
        odd_id: s.oddId,
        requested_odds: s.requestedOdds,
        odds: s.odds,
        odd_updated_at: s.oddUpdatedAt,
        match_status: s.matchStatus,
        event_info: JSON.stringify(s.eventInfo),
      })),
    )
    .returningAll()
    .execute();
  selections.sort((a, b) => a.idx - b.idx);
  return { row, selections };
}

/** Loads bets with their selections; `lock` takes row locks on the bets (FOR UPDATE). */
export async function loadBets(
  db: Executor,
  ids: readonly string[],
  opts: { lock?: boolean } = {},
): Promise<Bet[]> {
  if (ids.length === 0) return [];
  let q = db.selectFrom('bet').selectAll().where('id', 'in', ids);
  if (opts.lock) q = q.forUpdate();
  const rows = await q.execute();
  const sels = await db
    .selectFrom('bet_selection')
    .selectAll()
    .where('bet_id', 'in', ids)
    .orderBy('bet_id')
    .orderBy('idx')
    .execute();
  const byBet = new Map<string, SelectionRow[]>();
  for (const s of sels) byBet.set(s.bet_id, [...(byBet.get(s.bet_id) ?? []), s]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ row, selections: byBet.get(id) ?? [] }] : [];
  });
}

/** One bet of a white label (undefined for another white label's bet: isolation). */
export async function findBet(
  db: Executor,
  whiteLabelId: string,
  id: string,
  lock = false,
): Promise<Bet | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [bet] = await loadBets(db, [id], { lock });
  return bet && bet.row.white_label_id === whiteLabelId ? bet : undefined;
}

/** The bet a player already placed with this client idempotency key. */
export async function findBetByClientKey(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
  clientKey: string,
): Promise<string | undefined> {
  const r = await db
    .selectFrom('bet')
    .select('id')
    .where('white_label_id', '=', whiteLabelId)
    .where('player_id', '=', playerId)
    .where('client_key', '=', clientKey)
    .executeTakeFirst();
  return r?.id;
}

/**
 * Moves a bet from `from` to `to` with the given column changes; returns the updated row, or undefined when the
 * bet was no longer in `from` (another process or the recovery job decided it first).
 */
export async function transitionBet(
  tx: Executor,
  id: string,
  from: BetState,
  to: BetState,
  changes: Partial<{
    restrictions: unknown[];
    decidedAt: Date;
    totalOdds: string;
    baseOdds: string;
  }> = {},
): Promise<BetRow | undefined> {
  return tx
    .updateTable('bet')
    .set({
      state: to,
      updated_at: sql`now()`,
      ...(changes.restrictions ? { restrictions: JSON.stringify(changes.restrictions) } : {}),
      ...(changes.decidedAt ? { decided_at: changes.decidedAt } : {}),
      ...(changes.totalOdds ? { total_odds: changes.totalOdds } : {}),
      ...(changes.baseOdds ? { base_odds: changes.baseOdds } : {}),
    })
    .where('id', '=', id)
    .where('state', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** Writes the odds one selection was accepted at; returns the updated selection. */
export async function setAcceptedOdds(
  tx: Executor,
  betId: string,
  idx: number,
  odds: string,
): Promise<SelectionRow> {
  return tx
    .updateTable('bet_selection')
    .set({ odds })
    .where('bet_id', '=', betId)
    .where('idx', '=', idx)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** When the player last had a bet accepted on each of these sport events. */
export async function lastBetTimes(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
  sportEventIds: readonly string[],
): Promise<Map<string, Date>> {
  if (sportEventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('player_event_bet')
    .select(['sport_event_id', 'last_bet_at'])
    .where('white_label_id', '=', whiteLabelId)
    .where('player_id', '=', playerId)
    .where('sport_event_id', 'in', sportEventIds)
    .execute();
  return new Map(rows.map((r) => [r.sport_event_id, new Date(r.last_bet_at)]));
}

/** Records an accepted bet's time on each of its sport events (bet_interval). */
export async function recordBetTimes(
  tx: Executor,
  whiteLabelId: string,
  playerId: string,
  sportEventIds: readonly string[],
  at: Date,
): Promise<void> {
  const unique = [...new Set(sportEventIds)];
  if (unique.length === 0) return;
  await tx
    .insertInto('player_event_bet')
    .values(
      unique.map((e) => ({
        white_label_id: whiteLabelId,
        player_id: playerId,
        sport_event_id: e,
        last_bet_at: at,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['white_label_id', 'player_id', 'sport_event_id'])
        .doUpdateSet({ last_bet_at: (eb) => eb.ref('excluded.last_bet_at') }),
    )
    .execute();
}

/** Bets stuck in `hold_requested` past their placement deadline, locked (SKIP LOCKED) for recovery. */
export async function claimStuckPlacements(tx: Executor, limit: number): Promise<BetRow[]> {
  return tx
    .selectFrom('bet')
    .selectAll()
    .where('state', '=', 'hold_requested')
    .where('placement_deadline', '<', sql<Date>`now()`)
    .orderBy('placement_deadline')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** A page of a player's bets, newest first (history). */
export async function listPlayerBets(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
  page: { before?: { createdAt: Date; id: string }; limit: number },
): Promise<BetRow[]> {
  let q = db
    .selectFrom('bet')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .where('player_id', '=', playerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit);
  const before = page.before;
  if (before) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return q.execute();
}
