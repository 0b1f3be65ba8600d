/**
 * Real recorded exchange prices through Bookie (docs/adr/0027-betfair-odds-stream.md): a Betfair Exchange stream
 * recording (one `mcm` market change message per line) drives one Bookie market of one sport event from its first
 * prices to its result, through the same trading API the season replay uses.
 *
 * - **Parsing** ({@link parseMcmLine}, {@link readMcmFile}) is lossless: prices and sizes keep the text Betfair wrote
 *   (`"1.01"`, `"4.10"`, `"1000"`), taken from the JSON source with jsonc-parser's syntax tree; `JSON.parse` would
 *   turn them into binary floats first.
 * - **Tracking** ({@link BetfairMarketTracker}) keeps, per runner, the last traded price (`ltp`) and the back ladder
 *   (`atb` deltas, `batb` levels), and the market definition's status, in-play flag and runner statuses. A runner's
 *   price is its last traded price, else its best price available to back.
 * - **The script** ({@link oddsStreamScript}) turns the messages into trading commands: create the event when every
 *   active runner has a price, publish each price change as Bookie odds, suspend while Betfair suspends, go live
 *   when the market turns in play, result the market by Betfair's WINNER when it closes, end the fixture.
 *
 * The parsing is in `betfair-mcm.ts`, the tracking in `betfair-market-tracker.ts`. The driver that sends the script, places a bet and asks cash-out quotes along the way is in `odds-stream-run.ts`.
 *
 * @packageDocumentation
 */
import type { MarketInput, PatchMarketsBody, SportEvent } from '@bookie/contracts';
import {
  FIXTURE_STATUS,
  formatFeedOddValue,
  MARKET_STATUS,
  marketProbabilities,
  ODD_STATUS,
  parseDecimal,
  parseFeedOddValue,
} from '@bookie/core';
import { BetfairMarketTracker, type MarketView, type RunnerView } from './betfair-market-tracker.js';
import type { McmMessage } from './betfair-mcm.js';
import { URL_NAMESPACE, uuidV5 } from './ids.js';
import type { TradingCommand } from './season-script.js';

export * from './betfair-market-tracker.js';
export * from './betfair-mcm.js';

const dec = (v: string) => parseDecimal(v, { field: 'price', maxDecimals: 12 });

/** Namespace of the ids derived from Betfair: `uuidV5("https://www.betfair.com/exchange/", URL_NAMESPACE)`. */
export const BETFAIR_NAMESPACE = uuidV5('https://www.betfair.com/exchange/', URL_NAMESPACE);

/** The market type id Bookie gives a Betfair MATCH_ODDS market: 186, the two-way winner (UOF numbering). */
export const WINNER_MARKET_TYPE = 186;

/** Betfair event type ids (sports) Bookie names; others become `betfair:<id>`. */
export const BETFAIR_SPORTS: Readonly<Record<string, string>> = {
  '1': 'football',
  '2': 'tennis',
  '4': 'cricket',
  '7': 'horse_racing',
  '4339': 'greyhound_racing',
  '7522': 'basketball',
};

/** A step of an odds-stream script. */
export type OddsStepName = 'create' | 'in_play' | 'market' | 'result' | 'ended';

/** How the Bookie market reads after a step (what Bookie's own replica must show before the next action). */
export interface BookieMarketState {
  fixtureStatus: number;
  marketStatus: number;
  /** By outcome (Betfair selection id): 12-decimal feed value, active flag, odd status. */
  odds: Record<string, { value: string; is_active: boolean; status: number }>;
}

/** One trading command of the script, with the Betfair market it comes from. */
export interface OddsStreamStep {
  step: OddsStepName;
  /** Betfair publish time, unix ms. */
  at: number;
  /** Line of the recording. */
  line: number;
  command: TradingCommand;
  /** The Betfair market after the message (prices as Betfair wrote them). */
  betfair: MarketView;
  /** The Bookie market after the command. */
  bookie: BookieMarketState;
}

/** A recording as Bookie trading commands. */
export interface OddsStreamScript {
  betfairMarketId: string;
  sportEventId: string;
  /** Bookie's market id: the Betfair market id. */
  marketId: string;
  steps: OddsStreamStep[];
  /** The winner by Betfair's result (undefined when the recording ends before a WINNER). */
  winner?: string;
}

/** Bookie's market status for a Betfair market status: OPEN → active, anything else not closed → suspended. */
export function bookieMarketStatus(status: string): number {
  return status === 'OPEN' ? MARKET_STATUS.ACTIVE : MARKET_STATUS.SUSPENDED;
}

/**
 * The margin-free win probability of each active runner of a Bookie market state, as Bookie's trading writer
 * computes the feed's `probability` (core's {@link marketProbabilities}: 1/price over Σ 1/price of the active
 * outcomes, 12 decimals); inactive outcomes get null.
 */
export function probabilitiesOf(state: BookieMarketState): Record<string, string | null> {
  const ids = Object.keys(state.odds);
  const ps = marketProbabilities(
    ids.map((id) => ({
      value: parseFeedOddValue(state.odds[id]!.value, 'value'),
      active: state.odds[id]!.is_active,
    })),
  );
  return Object.fromEntries(ids.map((id, i) => [id, ps[i] ?? null]));
}

/**
 * The recording as trading commands for one Bookie sport event with one market (see the module comment and
 * docs/adr/0027-betfair-odds-stream.md "Mapping"):
 *
 * - `create` once the definition is known and every ACTIVE runner has a price: fixture not started (live when
 *   already in play), the market active or suspended as Betfair's, one outcome per runner with a price (a REMOVED
 *   runner inactive).
 * - `in_play` when the market turns in play: fixture status live.
 * - `market` for every change of a published price, of the market status (OPEN ↔ SUSPENDED) or of a runner becoming
 *   REMOVED (outcome inactive): only what changed, in one command.
 * - `result` when the market closes: with a WINNER, that outcome wins, REMOVED runners are refunded, the others
 *   lose, the market is resulted; with no WINNER (a void market) every outcome is refunded and the market cancelled.
 * - `ended`: fixture status ended. Nothing after the close is read.
 *
 * @param marketId - the Betfair market to follow (default the first one of the recording).
 * @throws RangeError when the recording never gives the market a definition and prices.
 */
export function oddsStreamScript(messages: readonly McmMessage[], marketId?: string): OddsStreamScript {
  const tracker = new BetfairMarketTracker(marketId);
  const steps: OddsStreamStep[] = [];
  let sportEventId: string | undefined;
  let state: BookieMarketState | undefined;
  let path = '';
  let winner: string | undefined;

  for (const msg of messages) {
    if (!tracker.apply(msg)) continue;
    const view = tracker.view();
    if (!view) continue;
    const push = (step: OddsStepName, command: TradingCommand, next: BookieMarketState) => {
      state = next;
      steps.push({ step, at: msg.pt, line: msg.line, command, betfair: view, bookie: next });
    };

    if (!state) {
      if (view.status === 'CLOSED') continue;
      const priced = view.runners.filter((r) => r.price !== undefined);
      if (view.runners.some((r) => r.status === 'ACTIVE' && r.price === undefined) || priced.length < 2)
        continue;
      sportEventId = uuidV5(`market/${view.marketId}`, BETFAIR_NAMESPACE);
      path = `/trading/sport-events/${sportEventId}`;
      const next: BookieMarketState = {
        fixtureStatus: view.inPlay ? FIXTURE_STATUS.LIVE : FIXTURE_STATUS.NOT_STARTED,
        marketStatus: bookieMarketStatus(view.status),
        odds: Object.fromEntries(
          priced.map((r) => [
            r.id,
            { value: formatFeedOddValue(dec(r.price!)), is_active: r.status === 'ACTIVE', status: 0 },
          ]),
        ),
      };
      push('create', createCommand(sportEventId, view, next), next);
      continue;
    }

    const current: BookieMarketState = state;
    const mid = view.marketId;
    if (view.status === 'CLOSED') {
      const won = view.runners.find((r) => r.status === 'WINNER');
      winner = won?.id;
      const oddStatus = (r: RunnerView | undefined) =>
        !won
          ? ODD_STATUS.REFUNDED
          : r?.status === 'WINNER'
            ? ODD_STATUS.WIN
            : r?.status === 'REMOVED'
              ? ODD_STATUS.REFUNDED
              : ODD_STATUS.LOSS;
      const odds = Object.fromEntries(
        Object.entries(current.odds).map(([id, o]) => [
          id,
          { ...o, status: oddStatus(view.runners.find((r) => r.id === id)) },
        ]),
      );
      const marketStatus = won ? MARKET_STATUS.RESULTED : MARKET_STATUS.CANCELLED;
      const body: PatchMarketsBody = {
        markets: [
          {
            id: mid,
            status: marketStatus,
            odds: Object.entries(odds).map(([id, o]) => ({ id, status: o.status })),
          },
        ],
      };
      push(
        'result',
        { kind: 'patch_markets', method: 'PATCH', path: `${path}/markets`, body },
        { ...current, marketStatus, odds },
      );
      push(
        'ended',
        {
          kind: 'update_fixture',
          method: 'PATCH',
          path: `${path}/fixture`,
          body: { status: FIXTURE_STATUS.ENDED },
        },
        { ...state!, fixtureStatus: FIXTURE_STATUS.ENDED },
      );
      break;
    }

    if (view.inPlay && current.fixtureStatus === FIXTURE_STATUS.NOT_STARTED) {
      push(
        'in_play',
        {
          kind: 'update_fixture',
          method: 'PATCH',
          path: `${path}/fixture`,
          body: { status: FIXTURE_STATUS.LIVE },
        },
        { ...current, fixtureStatus: FIXTURE_STATUS.LIVE },
      );
    }
    const before: BookieMarketState = state;
    const patch: PatchMarketsBody['markets'][number] = { id: mid };
    const odds = { ...before.odds };
    const marketStatus = bookieMarketStatus(view.status);
    if (marketStatus !== before.marketStatus) patch.status = marketStatus;
    const oddPatches: NonNullable<PatchMarketsBody['markets'][number]['odds']> = [];
    for (const r of view.runners) {
      const o = odds[r.id];
      if (!o) continue; // a runner without a price when the event was created stays out of the market
      const p: (typeof oddPatches)[number] = { id: r.id };
      const active = r.status === 'ACTIVE';
      if (active !== o.is_active) p.is_active = active;
      if (active && r.price !== undefined) {
        const value = formatFeedOddValue(dec(r.price));
        if (value !== o.value) p.value = value;
      }
      if (p.value !== undefined || p.is_active !== undefined) {
        oddPatches.push(p);
        odds[r.id] = { ...o, ...(p.value ? { value: p.value } : {}), is_active: active };
      }
    }
    if (oddPatches.length > 0) patch.odds = oddPatches;
    if (patch.status !== undefined || patch.odds) {
      push(
        'market',
        { kind: 'patch_markets', method: 'PATCH', path: `${path}/markets`, body: { markets: [patch] } },
        { ...before, marketStatus, odds },
      );
    }
  }
  const first = steps[0];
  if (!first || sportEventId === undefined) {
    throw new RangeError('oddsStreamScript: the recording never gives the market a definition and prices');
  }
  return {
    betfairMarketId: first.betfair.marketId,
    sportEventId,
    marketId: first.betfair.marketId,
    steps,
    ...(winner ? { winner } : {}),
  };
}

function createCommand(id: string, view: MarketView, state: BookieMarketState): TradingCommand {
  const sport = BETFAIR_SPORTS[view.eventTypeId ?? ''] ?? `betfair:${view.eventTypeId ?? 'unknown'}`;
  const competitors: NonNullable<CreateBody['fixture']['competitors']> = {};
  // the first two runners are the fixture's competitors (a third, e.g. a football draw, is an outcome only)
  view.runners.slice(0, 2).forEach((r, i) => {
    const cid = uuidV5(`selection/${r.id}`, BETFAIR_NAMESPACE);
    competitors[cid] = {
      id: cid,
      meta: { betfair_selection_id: r.id },
      name: `Betfair selection ${r.id}`,
      type: 2,
      scores: {},
      home_away: i === 0 ? 1 : 2,
      master_id: cid,
      template_position: i + 1,
    };
  });
  const market: MarketInput = {
    id: view.marketId,
    type_id: WINNER_MARKET_TYPE,
    status: state.marketStatus,
    template: 'Match odds',
    specifiers: {},
    odds: Object.entries(state.odds).map(([oid, o]) => {
      const position = view.runners.findIndex((r) => r.id === oid) + 1;
      return {
        id: oid,
        value: o.value,
        status: o.status,
        template: position >= 1 && position <= 2 ? `{$competitor${position}}` : `selection ${oid}`,
        is_active: o.is_active,
      };
    }),
  };
  const tournamentId = uuidV5(`event-type/${view.eventTypeId ?? 'unknown'}`, BETFAIR_NAMESPACE);
  return {
    kind: 'create_sport_event',
    method: 'POST',
    path: '/trading/sport-events',
    body: {
      id,
      meta: {
        source: 'betfair-exchange-stream',
        betfair_market_id: view.marketId,
        ...(view.eventId ? { betfair_event_id: view.eventId } : {}),
        ...(view.marketType ? { betfair_market_type: view.marketType } : {}),
      },
      fixture: {
        id,
        meta: {},
        type: 1,
        status: state.fixtureStatus,
        sport_id: sport,
        template: '{$competitor1} vs {$competitor2}',
        start_time: view.marketTime ?? new Date(0).toISOString(),
        tournament: { id: tournamentId, name: `Betfair Exchange ${sport}`, master_id: tournamentId },
        competitors,
        live_coverage: true,
      },
      markets: [market],
      bet_stop: false,
      sources: [{ id: view.marketId, type: 'betfair-exchange' }],
    },
  };
}

type CreateBody = Extract<TradingCommand, { kind: 'create_sport_event' }>['body'];

/**
 * True when a snapshot of the sport event (Bookie's replica, e.g. the frame's view) shows `state`: the fixture
 * status, the market status and, unless the market is suspended (whose odds a frame view hides), every outcome's
 * value, status and active flag.
 */
export function showsState(
  event: SportEvent | undefined,
  marketId: string,
  state: BookieMarketState,
): boolean {
  if (!event || event.fixture.status !== state.fixtureStatus) return false;
  const m = event.markets[marketId];
  if (!m || m.status !== state.marketStatus) return false;
  if (m.status === MARKET_STATUS.SUSPENDED) return true;
  return Object.entries(state.odds).every(([id, o]) => {
    const got = m.odds[id];
    return got && got.value === o.value && got.status === o.status && got.is_active === o.is_active;
  });
}
