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
 * The driver that sends the script, places a bet and asks cash-out quotes along the way is in `odds-stream-run.ts`.
 *
 * @packageDocumentation
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { MarketInput, PatchMarketsBody, SportEvent } from '@bookie/contracts';
import {
  compare,
  FIXTURE_STATUS,
  formatFeedOddValue,
  MARKET_STATUS,
  marketProbabilities,
  ODD_STATUS,
  parseDecimal,
  parseFeedOddValue,
  validationError,
} from '@bookie/core';
import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { URL_NAMESPACE, uuidV5 } from './ids.js';
import type { TradingCommand } from './season-script.js';

// ------------------------------------------------------------------------------------------------------ parsing

/** A price and a size as Betfair wrote them (decimal strings, never floats). */
export type PriceSize = readonly [price: string, size: string];

/** A runner of a market definition. */
export interface McmRunnerDefinition {
  /** Selection id (the number's source text). */
  id: string;
  /** `ACTIVE`, `WINNER`, `LOSER`, `REMOVED`, `PLACED` or `HIDDEN`. */
  status: string;
  /** Display order (1 first); 0 when absent. */
  sortPriority: number;
  name?: string;
}

/** A market definition (sent in full whenever it changes). */
export interface McmMarketDefinition {
  /** `INACTIVE`, `OPEN`, `SUSPENDED` or `CLOSED`. */
  status: string;
  inPlay: boolean;
  eventTypeId?: string;
  eventId?: string;
  marketType?: string;
  /** Scheduled start, ISO 8601. */
  marketTime?: string;
  runners: McmRunnerDefinition[];
}

/** One runner's changes in a message. */
export interface McmRunnerChange {
  id: string;
  /** Last traded price. */
  ltp?: string;
  /** Available to back: full-depth deltas (size "0" removes the price). */
  atb?: PriceSize[];
  /** Best available to back by level: `[level, price, size]` deltas. */
  batb?: (readonly [level: string, price: string, size: string])[];
}

/** One market's changes in a message. */
export interface McmMarketChange {
  id: string;
  /** True when this change is a full image (the runners' ladders are replaced, not patched). */
  img: boolean;
  definition?: McmMarketDefinition;
  runners: McmRunnerChange[];
}

/** One `mcm` message. */
export interface McmMessage {
  /** Line number in the file (1-based). */
  line: number;
  /** Publish time, unix ms. */
  pt: number;
  markets: McmMarketChange[];
}

const PRICE = /^[0-9]+(\.[0-9]+)?$/;

/** A JSON reader over jsonc-parser's syntax tree that names the field of any problem. */
class Reader {
  constructor(
    private readonly text: string,
    private readonly where: string,
  ) {}

  fail(path: string, reason: string): never {
    throw validationError(`${this.where} ${path}`.trim(), reason);
  }

  prop(node: Node | undefined, key: string): Node | undefined {
    if (node?.type !== 'object') return undefined;
    for (const p of node.children ?? []) {
      if (p.children?.[0]?.value === key) return p.children[1];
    }
    return undefined;
  }

  object(node: Node | undefined, path: string): Node {
    if (node?.type !== 'object') this.fail(path, 'expected an object');
    return node;
  }

  array(node: Node | undefined, path: string): Node[] {
    if (node === undefined) return [];
    if (node.type !== 'array') this.fail(path, 'expected an array');
    return node.children ?? [];
  }

  string(node: Node | undefined, path: string): string {
    if (node?.type !== 'string') this.fail(path, 'expected a string');
    return node.value as string;
  }

  boolean(node: Node | undefined, path: string): boolean {
    if (node?.type !== 'boolean') this.fail(path, 'expected true or false');
    return node.value as boolean;
  }

  /** A number's source text, exactly as written. */
  numberText(node: Node | undefined, path: string): string {
    if (node?.type !== 'number') this.fail(path, 'expected a number');
    return this.text.slice(node.offset, node.offset + node.length);
  }

  /** An id: a string, or a whole number's source text. */
  id(node: Node | undefined, path: string): string {
    if (node?.type === 'string') return node.value as string;
    const t = this.numberText(node, path);
    if (!/^[0-9]+$/.test(t)) this.fail(path, `expected a whole number, got ${t}`);
    return t;
  }

  /** A price as written: decimal odds ≥ 1 in plain notation. */
  price(node: Node | undefined, path: string): string {
    const t = this.numberText(node, path);
    if (!PRICE.test(t)) this.fail(path, `expected a price in plain decimal notation, got ${t}`);
    parseFeedOddValue(t, `${this.where} ${path}`);
    return t;
  }

  /** A size as written: a non-negative decimal in plain notation. */
  size(node: Node | undefined, path: string): string {
    const t = this.numberText(node, path);
    if (!PRICE.test(t)) this.fail(path, `expected a size in plain decimal notation, got ${t}`);
    return t;
  }
}

/**
 * Parses one line of a stream recording. Prices and sizes keep their source text (see the module comment).
 *
 * @param text - the line (one JSON object).
 * @param line - its 1-based line number, named in errors.
 * @returns the message, or undefined for a blank line or a message that is not an `mcm` (heartbeats, status).
 * @throws DomainError `validation_error` naming the line and field: not JSON, a field of the wrong type, a price
 *   below 1 or not in plain decimal notation.
 */
export function parseMcmLine(text: string, line: number): McmMessage | undefined {
  if (text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const r = new Reader(text, `line ${line}`);
  if (errors.length > 0 || !root) {
    const e = errors[0];
    r.fail('', `not valid JSON${e ? ` (${printParseErrorCode(e.error)} at column ${e.offset + 1})` : ''}`);
  }
  r.object(root, '(message)');
  const op = r.prop(root, 'op');
  if (op && r.string(op, 'op') !== 'mcm') return undefined;
  const ptText = r.numberText(r.prop(root, 'pt'), 'pt');
  if (!/^[0-9]+$/.test(ptText)) r.fail('pt', `expected whole milliseconds, got ${ptText}`);
  const markets = r.array(r.prop(root, 'mc'), 'mc').map((mc, i) => {
    const at = `mc[${i}]`;
    r.object(mc, at);
    const defNode = r.prop(mc, 'marketDefinition');
    const imgNode = r.prop(mc, 'img');
    const change: McmMarketChange = {
      id: r.id(r.prop(mc, 'id'), `${at}.id`),
      img: imgNode ? r.boolean(imgNode, `${at}.img`) : false,
      runners: r.array(r.prop(mc, 'rc'), `${at}.rc`).map((rc, j) => runnerChange(r, rc, `${at}.rc[${j}]`)),
    };
    if (defNode) change.definition = marketDefinition(r, defNode, `${at}.marketDefinition`);
    return change;
  });
  return { line, pt: Number(ptText), markets };
}

function runnerChange(r: Reader, rc: Node, at: string): McmRunnerChange {
  r.object(rc, at);
  const out: McmRunnerChange = { id: r.id(r.prop(rc, 'id'), `${at}.id`) };
  const ltp = r.prop(rc, 'ltp');
  if (ltp) out.ltp = r.price(ltp, `${at}.ltp`);
  const atb = r.prop(rc, 'atb');
  if (atb) {
    out.atb = r.array(atb, `${at}.atb`).map((ps, k) => {
      const [p, s] = r.array(ps, `${at}.atb[${k}]`);
      return [r.price(p, `${at}.atb[${k}][0]`), r.size(s, `${at}.atb[${k}][1]`)] as const;
    });
  }
  const batb = r.prop(rc, 'batb');
  if (batb) {
    out.batb = r.array(batb, `${at}.batb`).map((lps, k) => {
      const [l, p, s] = r.array(lps, `${at}.batb[${k}]`);
      return [
        r.id(l, `${at}.batb[${k}][0]`),
        r.price(p, `${at}.batb[${k}][1]`),
        r.size(s, `${at}.batb[${k}][2]`),
      ] as const;
    });
  }
  return out;
}

function marketDefinition(r: Reader, d: Node, at: string): McmMarketDefinition {
  r.object(d, at);
  const opt = (key: string) => {
    const n = r.prop(d, key);
    return n
      ? n.type === 'number'
        ? r.numberText(n, `${at}.${key}`)
        : r.string(n, `${at}.${key}`)
      : undefined;
  };
  const out: McmMarketDefinition = {
    status: r.string(r.prop(d, 'status'), `${at}.status`),
    inPlay: r.prop(d, 'inPlay') ? r.boolean(r.prop(d, 'inPlay'), `${at}.inPlay`) : false,
    runners: r.array(r.prop(d, 'runners'), `${at}.runners`).map((rn, k) => {
      const rat = `${at}.runners[${k}]`;
      r.object(rn, rat);
      const sp = r.prop(rn, 'sortPriority');
      const name = r.prop(rn, 'name');
      return {
        id: r.id(r.prop(rn, 'id'), `${rat}.id`),
        status: r.string(r.prop(rn, 'status'), `${rat}.status`),
        sortPriority: sp ? Number(r.id(sp, `${rat}.sortPriority`)) : 0,
        ...(name ? { name: r.string(name, `${rat}.name`) } : {}),
      };
    }),
  };
  for (const key of ['eventTypeId', 'eventId', 'marketType', 'marketTime'] as const) {
    const v = opt(key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/**
 * Reads a recording line by line (Node's readline; a file of any size).
 *
 * @throws DomainError `validation_error` for the first malformed line (see {@link parseMcmLine}); Error ENOENT.
 */
export async function readMcmFile(file: string): Promise<McmMessage[]> {
  const out: McmMessage[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const text of lines) {
    n++;
    const m = parseMcmLine(text, n);
    if (m) out.push(m);
  }
  return out;
}

/** Parses a whole recording held in memory (tests, small excerpts). */
export function parseMcmText(text: string): McmMessage[] {
  return text.split(/\r?\n/).flatMap((l, i) => parseMcmLine(l, i + 1) ?? []);
}

// ----------------------------------------------------------------------------------------------------- tracking

/** Where a runner's price comes from. */
export type PriceSource = 'ltp' | 'back';

/** A runner as the tracker sees it now. */
export interface RunnerView {
  id: string;
  status: string;
  sortPriority: number;
  /** The last traded price, else the best price available to back; undefined when neither is known. */
  price?: string;
  source?: PriceSource;
}

/** A market as the tracker sees it now. */
export interface MarketView {
  marketId: string;
  status: string;
  inPlay: boolean;
  eventTypeId?: string;
  eventId?: string;
  marketType?: string;
  marketTime?: string;
  /** By sort priority. */
  runners: RunnerView[];
}

interface RunnerState {
  ltp?: string;
  /** atb: price text → size text (size "0" removed). */
  back: Map<string, string>;
  /** batb: level → [price, size]. */
  best: Map<string, readonly [string, string]>;
}

const isZero = (size: string) => /^0+(\.0+)?$/.test(size);
const dec = (v: string) => parseDecimal(v, { field: 'price', maxDecimals: 12 });

/**
 * Follows one market of a recording: its definition (status, in-play, runners and their statuses) and each
 * runner's last traded price and back ladder.
 */
export class BetfairMarketTracker {
  private definition: McmMarketDefinition | undefined;
  private readonly runners = new Map<string, RunnerState>();
  private followed: string | undefined;

  /** @param marketId - the market to follow; default the first market of the first message. */
  constructor(marketId?: string) {
    this.followed = marketId;
  }

  /** The market followed (once known). */
  get marketId(): string | undefined {
    return this.followed;
  }

  /** Applies a message; true when it changed the followed market. */
  apply(message: McmMessage): boolean {
    let changed = false;
    for (const mc of message.markets) {
      this.followed ??= mc.id;
      if (mc.id !== this.followed) continue;
      changed = true;
      if (mc.img) {
        for (const s of this.runners.values()) {
          s.back.clear();
          s.best.clear();
        }
      }
      if (mc.definition) this.definition = mc.definition;
      for (const rc of mc.runners) {
        let s = this.runners.get(rc.id);
        if (!s) {
          s = { back: new Map(), best: new Map() };
          this.runners.set(rc.id, s);
        }
        if (rc.ltp !== undefined) s.ltp = rc.ltp;
        for (const [p, size] of rc.atb ?? []) {
          if (isZero(size)) s.back.delete(p);
          else s.back.set(p, size);
        }
        for (const [level, p, size] of rc.batb ?? []) {
          if (isZero(size)) s.best.delete(level);
          else s.best.set(level, [p, size]);
        }
      }
    }
    return changed;
  }

  /** The best price available to back a runner now: batb level 0, else the highest atb price with a size. */
  bestBack(runnerId: string): string | undefined {
    const s = this.runners.get(runnerId);
    if (!s) return undefined;
    const top = s.best.get('0');
    if (top) return top[0];
    let best: string | undefined;
    for (const p of s.back.keys()) if (best === undefined || compare(dec(p), dec(best)) > 0) best = p;
    return best;
  }

  /** The market now; undefined until a market definition has been seen. */
  view(): MarketView | undefined {
    const d = this.definition;
    if (!d || this.followed === undefined) return undefined;
    const runners = [...d.runners]
      .sort((a, b) => a.sortPriority - b.sortPriority)
      .map((r): RunnerView => {
        const ltp = this.runners.get(r.id)?.ltp;
        const back = ltp === undefined ? this.bestBack(r.id) : undefined;
        const view: RunnerView = { id: r.id, status: r.status, sortPriority: r.sortPriority };
        if (ltp !== undefined) Object.assign(view, { price: ltp, source: 'ltp' });
        else if (back !== undefined) Object.assign(view, { price: back, source: 'back' });
        return view;
      });
    const out: MarketView = { marketId: this.followed, status: d.status, inPlay: d.inPlay, runners };
    for (const key of ['eventTypeId', 'eventId', 'marketType', 'marketTime'] as const) {
      if (d[key] !== undefined) out[key] = d[key];
    }
    return out;
  }
}

// ------------------------------------------------------------------------------------------------------- script

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
