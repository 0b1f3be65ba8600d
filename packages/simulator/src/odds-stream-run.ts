/**
 * The odds-stream driver (docs/adr/0027-betfair-odds-stream.md): sends an {@link oddsStreamScript} to a running
 * Bookie, places one bet on one runner before the start, and after every later step asks the partner's cash-out
 * `calculate` for that bet, recording each quote with the prices it was made on; then waits for settlement and
 * reports the price path, the quotes and the bet's settlement by Betfair's result.
 *
 * Order: after each trading command the driver waits until Bookie's own replica of the feed (the betting frame's
 * view of the event) shows the new market, so a bet or a quote is always made on the prices just published.
 *
 * @packageDocumentation
 */

import type { BetView, CashOutQuote } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import { callJson } from './clients.js';
import {
  type BookieMarketState,
  type McmMessage,
  type OddsStreamScript,
  type OddsStreamStep,
  oddsStreamScript,
  probabilitiesOf,
  showsState,
} from './odds-stream.js';
import { platformClients } from './platform-clients.js';
import type { ReplayTarget } from './replay.js';
import { sleep } from './replay.js';

/** Options of {@link runOddsStream}. */
export interface OddsStreamOptions {
  messages: readonly McmMessage[];
  /** The Betfair market to follow (default the recording's first). */
  marketId?: string;
  /** The runner (Betfair selection id) to back; default the first by sort priority. */
  back?: string;
  /** Stake of the bet, decimal string (default "10"). */
  stake?: string;
  /** The player's currency (default EUR). */
  currency?: string;
  /**
   * The bet goes on at the first step, with the market open and not in play, at most this long before the
   * market's scheduled start (default 24 h; the first open pre-match step when none is that close).
   */
  betBeforeStartMs?: number;
  /** How long to wait for Bookie (its replica, settlement), ms (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called after each step is applied (and quoted). */
  onStep?: (done: number, total: number) => void;
}

/** One cash-out quote along the stream. */
export interface OddsStreamQuote {
  /** Betfair publish time of the prices, ISO 8601. */
  at: string;
  /** Line of the recording. */
  line: number;
  step: string;
  /** Betfair market status (OPEN, SUSPENDED…) and in-play flag. */
  status: string;
  in_play: boolean;
  /** Bookie's market status when quoted (0 active, 1 suspended). */
  market_status: number;
  /** Each runner's price as published (Betfair's text), by selection id. */
  prices: Record<string, string>;
  /** The backed runner's margin-free probability as Bookie's feed computes it (12 decimals). */
  probability: string | null;
  available: boolean;
  reason?: string;
  /** What the player would receive now, 6 decimals (0 when nothing is offered). */
  refund_amount: string;
}

/** What {@link runOddsStream} reports. */
export interface OddsStreamReport {
  source: { betfair_market_id: string; messages: number; first_at: string; last_at: string };
  sport_event_id: string;
  market_id: string;
  runners: { id: string; sort_priority: number; result: string }[];
  commands: Record<string, number>;
  bet: {
    id: string;
    runner: string;
    stake: string;
    odds: string;
    placed_at: string;
    line: number;
    status: number;
  };
  quotes: OddsStreamQuote[];
  settlement: {
    winner: string | null;
    bet_status: number;
    settle_amount: string | null;
    wallet_available: string;
    wallet_ledger_ok: boolean;
  };
}

/** Polls `check` until it answers true; throws `what` after `timeoutMs`. */
async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; ; i++) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(Math.min(2 + i, 50), signal);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The index of the step the bet goes on (see {@link OddsStreamOptions.betBeforeStartMs}). */
export function betStepIndex(script: OddsStreamScript, back: string, betBeforeStartMs: number): number {
  const open = (s: OddsStreamStep) =>
    s.step !== 'result' &&
    s.step !== 'ended' &&
    !s.betfair.inPlay &&
    s.betfair.status === 'OPEN' &&
    s.bookie.odds[back]?.is_active === true;
  const candidates = script.steps.map((s, i) => [s, i] as const).filter(([s]) => open(s));
  if (candidates.length === 0)
    throw validationError('back', `selection ${back} never has an open pre-match price to back`);
  const close = candidates.find(([s]) => {
    const start = s.betfair.marketTime ? Date.parse(s.betfair.marketTime) : Number.NaN;
    return Number.isFinite(start) && start - s.at <= betBeforeStartMs;
  });
  return (close ?? candidates[0]!)[1];
}

/**
 * Replays a recording into the platform at `target` (see the module comment). The database behind `target` must
 * not hold this market's sport event yet (its id is derived from the Betfair market id).
 *
 * @throws RangeError when the recording never prices a market; DomainError `validation_error` (field `back`) when
 *   the backed selection is not a runner or never has an open pre-match price;
 *   HttpError/TradingCommandError when Bookie refuses a call; Error on a timeout; the abort reason.
 */
export async function runOddsStream(
  target: ReplayTarget,
  options: OddsStreamOptions,
): Promise<OddsStreamReport> {
  const script = oddsStreamScript(options.messages, options.marketId);
  const first = script.steps[0]!;
  const back = options.back ?? first.betfair.runners[0]!.id;
  if (!first.betfair.runners.some((r) => r.id === back)) {
    throw validationError('back', `selection ${back} is not a runner of market ${script.betfairMarketId}`);
  }
  const betAt = betStepIndex(script, back, options.betBeforeStartMs ?? 24 * 3_600_000);
  const stake = options.stake ?? '10';
  const currency = options.currency ?? 'EUR';
  const timeoutMs = options.timeoutMs ?? 60_000;
  const signal = options.signal;
  const { base, agent, partner, trading, frame, wallet, admin } = platformClients(target, {
    connections: 8,
    tradingConnections: 2,
  });
  const player = `odds-stream-${script.betfairMarketId}`;
  const deposit = '1000';
  const commands: Record<string, number> = {};
  const quotes: OddsStreamQuote[] = [];
  let lastVersion = 0n;
  let bet: BetView | undefined;
  let betStep: OddsStreamStep | undefined;

  try {
    await wallet.deposit(player, deposit, currency, `${player}-deposit`);
    const session = (
      await partner.createPlayerToken({
        locale: 'en',
        currency,
        player_id: player,
        params: { player, currency },
      })
    ).token;
    const shows = (state: BookieMarketState) => async () =>
      showsState(
        await frame.getEvent(session, script.sportEventId).catch(() => undefined),
        script.marketId,
        state,
      );

    for (const [i, step] of script.steps.entries()) {
      signal?.throwIfAborted();
      const res = await trading.send(step.command);
      commands[step.step] = (commands[step.step] ?? 0) + 1;
      const v = BigInt(res.version);
      if (v > lastVersion) lastVersion = v;
      await waitFor(shows(step.bookie), `Bookie's replica to show line ${step.line}`, timeoutMs, signal);

      if (i === betAt) {
        const odds = step.betfair.runners.find((r) => r.id === back)!.price!;
        bet = await frame.placeBet(session, {
          bet_type: 'single',
          selections: [
            { sport_event_id: script.sportEventId, market_id: script.marketId, odd_id: back, odds },
          ],
          stake,
          currency,
          odds_strategy: 1,
          client_key: `${player}-bet`,
        });
        if (bet.status !== 1) {
          throw new Error(
            `the bet on selection ${back} was not accepted: ${JSON.stringify(bet.restrictions)}`,
          );
        }
        betStep = step;
      } else if (
        bet &&
        step.step !== 'result' &&
        step.step !== 'ended' &&
        // one quote per message: after the last of the commands a message makes (turning in play and reopening)
        script.steps[i + 1]?.line !== step.line
      ) {
        const q = await callJson<CashOutQuote>(
          agent,
          'POST',
          `${base}/bets/${encodeURIComponent(bet.id)}/cash-out-orders/calculate`,
          { token: await partner.accessToken(), body: {}, ...(signal ? { signal } : {}) },
        );
        quotes.push({
          at: iso(step.at),
          line: step.line,
          step: step.step,
          status: step.betfair.status,
          in_play: step.betfair.inPlay,
          market_status: step.bookie.marketStatus,
          prices: pricesOf(step),
          probability: probabilitiesOf(step.bookie)[back] ?? null,
          available: q.available,
          ...(q.reason ? { reason: q.reason } : {}),
          refund_amount: q.refund_amount,
        });
      }
      options.onStep?.(i + 1, script.steps.length);
    }
    if (!bet || !betStep) throw new Error('the bet was never placed');

    // settlement of the result, then the bet and the player's money as the partner's wallet holds it
    await waitFor(
      async () => BigInt((await admin.settlementStatus()).processed) >= lastVersion,
      `settlement to reach version ${lastVersion}`,
      timeoutMs,
      signal,
    );
    await waitFor(async () => (await admin.pendingCallbacks()) === 0, 'the callbacks', timeoutMs, signal);
    const final = (await frame.allBets(session)).find((b) => b.id === bet!.id) ?? bet;
    const balance = await wallet.balance(player, currency);
    const ledger = await wallet.checkLedger();
    const last = script.steps[script.steps.length - 1]!;
    const result = (id: string) => last.betfair.runners.find((r) => r.id === id)?.status ?? 'ACTIVE';
    return {
      source: {
        betfair_market_id: script.betfairMarketId,
        messages: options.messages.length,
        first_at: iso(options.messages[0]?.pt ?? first.at),
        last_at: iso(options.messages[options.messages.length - 1]?.pt ?? last.at),
      },
      sport_event_id: script.sportEventId,
      market_id: script.marketId,
      runners: first.betfair.runners.map((r) => ({
        id: r.id,
        sort_priority: r.sortPriority,
        result: result(r.id),
      })),
      commands,
      bet: {
        id: bet.id,
        runner: back,
        stake: bet.stake,
        odds: bet.selections[0]?.odds ?? bet.total_odds,
        placed_at: iso(betStep.at),
        line: betStep.line,
        status: final.status,
      },
      quotes,
      settlement: {
        winner: script.winner ?? null,
        bet_status: final.status,
        settle_amount: final.settle_amount,
        wallet_available: balance.available,
        wallet_ledger_ok: ledger.ok,
      },
    };
  } finally {
    await trading.close().catch(() => {});
    await agent.close().catch(() => {});
  }
}

function pricesOf(step: OddsStreamStep): Record<string, string> {
  return Object.fromEntries(
    step.betfair.runners.flatMap((r) => (r.price !== undefined ? [[r.id, r.price]] : [])),
  );
}

/**
 * The report as text: the source, the bet, the price path sampled (about `rows` quotes, every status change kept)
 * with the quote at each, and the settlement.
 */
export function formatOddsStreamReport(r: OddsStreamReport, rows = 24): string {
  const out: string[] = [];
  const runners = r.runners.map((x) => x.id);
  out.push(
    `Betfair market ${r.source.betfair_market_id}: ${r.source.messages} messages, ${r.source.first_at} → ${r.source.last_at}`,
    `Bookie sport event ${r.sport_event_id}, market ${r.market_id}; commands ${Object.entries(r.commands)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
    `Bet ${r.bet.id}: ${r.bet.stake} on selection ${r.bet.runner} at ${r.bet.odds} (line ${r.bet.line}, ${r.bet.placed_at})`,
    '',
    `Price path and cash-out quotes (${r.quotes.length} quotes, sampled):`,
    `  ${'time (UTC)'.padEnd(20)} ${'status'.padEnd(16)} ${runners.map((id) => id.padStart(10)).join(' ')}  ${'p(back)'.padStart(8)}  quote`,
  );
  const every = Math.max(1, Math.ceil(r.quotes.length / rows));
  r.quotes.forEach((q, i) => {
    const prev = r.quotes[i - 1];
    const statusChange = !prev || prev.status !== q.status || prev.in_play !== q.in_play;
    if (i % every !== 0 && !statusChange && i !== r.quotes.length - 1) return;
    const status = `${q.status}${q.in_play ? ' in-play' : ''}`;
    const prices = runners.map((id) => (q.prices[id] ?? '-').padStart(10)).join(' ');
    const p = q.probability ? q.probability.slice(0, 6) : '-';
    const quote = q.available ? q.refund_amount : `none (${q.reason})`;
    out.push(
      `  ${q.at.slice(0, 19).replace('T', ' ')} ${status.padEnd(16)} ${prices}  ${p.padStart(8)}  ${quote}`,
    );
  });
  const s = r.settlement;
  out.push(
    '',
    `Result: winner ${s.winner ?? 'none (void)'}; the bet's status ${s.bet_status}, settle amount ${s.settle_amount ?? '-'}; ` +
      `wallet ${s.wallet_available} available, ledger ${s.wallet_ledger_ok ? 'OK' : 'NOT OK'}`,
  );
  return out.join('\n');
}
