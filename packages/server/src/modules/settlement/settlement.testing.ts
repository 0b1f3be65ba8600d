import { randomUUID } from 'node:crypto';
import type { BetView, PatchMarketsBody } from '@bookie/contracts';
import { formatFeedOddValue, mul, ONE, parseDecimal } from '@bookie/core';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { startBackground } from '../../app/wiring.js';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../testing/database.js';
import { bearer, injectJson } from '../../testing/inject.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { type ReceivedCallback, scriptedPartner, waitUntil } from '../../testing/scripted-partner.js';
import { insertBet, transitionBets } from '../bets/index.js';
import { applyChangesCommand } from '../trading/apply-changes.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent, sampleEventInfo } from '../trading/fixtures.js';
import { patchMarkets } from '../trading/patch-markets.js';
import type { SettlementConsumer } from './consumer/settlement-consumer.js';

/**
 * A whole platform for settlement tests: a test database, the app with its background work (dispatcher and the
 * settlement consumer), a scripted partner recording callbacks, and helpers to place bets through the frame API and
 * to result markets through the trading API. Not used in production paths.
 */
export async function settlementWorld(opts: { env?: NodeJS.ProcessEnv; callbackUrl?: string } = {}) {
  const partner = await scriptedPartner();
  const db = await createTestDatabase();
  const t: TestApp = await createTestApp(db, {
    env: { CALLBACK_POLL_MS: '50', EUR_RATES: 'USD=1.1', ...opts.env },
  });
  await startBackground(t.deps);
  const consumer = t.deps.settlement as SettlementConsumer;

  async function trading<T extends { version: bigint }>(p: Promise<T>): Promise<T> {
    const r = await p;
    await t.deps.feed.catalog.waitFor(r.version);
    return r;
  }

  /** A white label (callbacks to the scripted partner unless told) and a player session. */
  async function newPlayer(playerId: string, wl: Record<string, unknown> = {}) {
    const p = await createPartner(
      { database: t.deps.database },
      { callback_url: opts.callbackUrl ?? partner.url, currencies: ['EUR', 'USD'], ...wl },
    );
    const token = await partnerToken(t.app, p.clientId, p.clientSecret);
    const session = await createSession(t.app, token, { player_id: playerId, params: { session: playerId } });
    return { whiteLabelId: p.whiteLabelId, session, token };
  }

  /** Another player session of a white label (by its partner token). */
  const newPlayerSession = (token: string, playerId: string) =>
    createSession(t.app, token, { player_id: playerId, params: { session: playerId } });

  /**
   * Sends a bet through the frame API (a single of 10 EUR, odds strategy 3, unless the body says otherwise); answers
   * the response whatever the decision.
   */
  const tryPlace = (session: string, body: Record<string, unknown>) =>
    injectJson(
      t.app,
      'POST',
      '/frame-api/bets',
      { bet_type: 'single', stake: '10', currency: 'EUR', odds_strategy: 3, ...body },
      bearer(session),
    );

  /** Places a bet through the frame API; returns the bet view (throws unless accepted). */
  async function place(session: string, body: Record<string, unknown>): Promise<BetView> {
    const res = await tryPlace(session, body);
    const json = res.json() as BetView;
    if (res.statusCode !== 200 || json.status !== 1) {
      throw new Error(`bet not accepted: ${res.statusCode} ${res.body}`);
    }
    return json;
  }

  /** A selection of market `m`, odd `o` of an event (sample odds: "1" 1.5, "2" 2.5, "3" 3.5). */
  const sel = (event: string, m = '1', o = '1') => ({
    sport_event_id: event,
    market_id: m,
    odd_id: o,
    odds: '1.01',
  });

  /** Creates a sample event (markets "1".."n", three odds each). */
  async function newEvent(markets = 3): Promise<string> {
    return (await trading(createSportEvent(t.deps, sampleEvent({ markets })))).id;
  }

  /** Sets odd statuses (and market statuses) of an event; waits until settlement processed the entry. */
  async function result(event: string, markets: PatchMarketsBody['markets']): Promise<bigint> {
    const r = await trading(patchMarkets(t.deps, { id: event, body: { markets } }));
    await consumer.waitFor(r.version);
    return r.version;
  }

  /** Appends raw changes to an event; waits until settlement processed the entry. */
  async function change(event: string, changes: Record<string, unknown>): Promise<bigint> {
    const r = await trading(applyChangesCommand(t.deps, { id: event, changes }));
    await consumer.waitFor(r.version);
    return r.version;
  }

  /** Settlement callbacks (/bet/settle, /bet/unsettle) the partner received for a bet, in order. */
  const settlementsOf = (betId: string): ReceivedCallback[] =>
    partner.received.filter(
      (c) => c.json.bet_id === betId && (c.path === '/bet/settle' || c.path === '/bet/unsettle'),
    );

  /** Waits until the partner received `n` settlement callbacks for the bet; returns them. */
  async function settlementsFor(betId: string, n: number): Promise<ReceivedCallback[]> {
    await waitUntil(() => settlementsOf(betId).length >= n);
    return settlementsOf(betId);
  }

  /** The bet as the frame API shows it now. */
  async function bet(session: string, id: string): Promise<BetView> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/frame-api/bets/${id}`,
      headers: { authorization: `Bearer ${session}` },
    });
    return res.json() as BetView;
  }

  /** An operator's (alice's) call of the admin API; answers the status, the body and the JSON when it is JSON. */
  async function admin(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await injectJson(t.app, method, url, body, {
      ...bearer(TEST_ADMIN_TOKEN),
      'x-operator': 'alice',
    });
    return {
      status: res.statusCode,
      json: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : undefined,
      text: res.body,
    };
  }

  /** Outbox rows of settlement for a bet, in order (what was enqueued, delivered or not). */
  async function outboxOf(betId: string) {
    return t.deps.database.db
      .selectFrom('callback_delivery')
      .select(['path', 'body', 'status'])
      .where('bet_id', '=', betId)
      .where('path', 'in', ['/bet/settle', '/bet/unsettle'])
      .orderBy('id')
      .execute();
  }

  return {
    t,
    partner,
    consumer,
    trading,
    newPlayer,
    newPlayerSession,
    newEvent,
    tryPlace,
    place,
    admin,
    sel,
    result,
    change,
    settlementsOf,
    settlementsFor,
    bet,
    outboxOf,
    async close() {
      // let the dispatcher finish what it has in flight first: its stop() can miss its idle wake-up when several
      // deliveries are in flight (reported to the callbacks module)
      await waitUntil(async () => {
        const r = await t.deps.database.db
          .selectFrom('callback_delivery')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('status', '=', 'pending')
          .where('mode', '=', 'async')
          .executeTakeFirst();
        return Number(r?.n ?? 0) === 0;
      }, 10_000).catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
      await t.close();
      await partner.close();
    },
  };
}

/** A sample market resulted: its odd "1" won (status 1), its odds "2" and "3" lost (status 2). */
export const firstOddWon = (marketId: string) => ({
  id: marketId,
  odds: [
    { id: '1', status: 1 },
    { id: '2', status: 2 },
    { id: '3', status: 2 },
  ],
});

/** Options of {@link insertBets}. */
export interface InsertBetsOptions {
  whiteLabelId: string;
  playerId?: string;
  /** Legs of each bet (one: a single; more: an express). */
  legs: Array<{ eventId: string; marketId: string; oddId: string; odds: string }>;
  count: number;
  stake?: string;
  state?: 'accepted' | 'hold_requested';
  createdAt?: Date;
  foreignParams?: Record<string, unknown>;
}

/**
 * Writes `count` bets straight into the bet tables (no placement, no callbacks): test and benchmark data for batches.
 * Returns their ids. Not used in production paths.
 */
export async function insertBets(database: Database, o: InsertBetsOptions): Promise<string[]> {
  const ids: string[] = [];
  const now = o.createdAt ?? new Date();
  const total = formatFeedOddValue(
    o.legs.map((l) => parseDecimal(l.odds, { field: 'odds', maxDecimals: 12 })).reduce(mul, ONE),
  );
  for (let i = 0; i < o.count; i += 500) {
    await database.db.transaction().execute(async (tx) => {
      for (let j = i; j < Math.min(o.count, i + 500); j++) {
        const id = randomUUID();
        ids.push(id);
        await insertBet(tx, {
          id,
          whiteLabelId: o.whiteLabelId,
          playerId: o.playerId ?? `p${j}`,
          currency: 'EUR',
          betType: o.legs.length > 1 ? 'express' : 'single',
          systemSizes: [],
          stake: o.stake ?? '10',
          oddsStrategy: 3,
          baseOdds: total,
          totalOdds: total,
          freebetId: null,
          insuranceId: null,
          boostId: null,
          foreignParams: o.foreignParams ?? {},
          sessionTokenHash: null,
          clientKey: null,
          createdAt: now,
          placementDeadline: new Date(now.getTime() + 30_000),
          selections: o.legs.map((l) => ({
            sportEventId: l.eventId,
            marketId: l.marketId,
            oddId: l.oddId,
            requestedOdds: l.odds,
            odds: l.odds,
            oddUpdatedAt: now,
            matchStatus: 0,
            eventInfo: sampleEventInfo,
          })),
        });
      }
    });
  }
  if ((o.state ?? 'accepted') === 'accepted') {
    await transitionBets(
      database.db,
      'hold_requested',
      'accepted',
      ids.map((id) => ({ id, decidedAt: now })),
    );
  }
  return ids;
}

/** See {@link settlementWorld}. */
export type SettlementWorld = Awaited<ReturnType<typeof settlementWorld>>;
