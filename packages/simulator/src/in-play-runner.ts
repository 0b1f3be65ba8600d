/**
 * Sends a match's {@link InPlayPlan} to a running Bookie (docs/adr/0026-in-play-replay.md): the minutes' trading
 * commands in order, the live bets through the frame API (a bet whose plan says so has the next minute's commands —
 * new prices or a goal's bet stop — sent while it waits out its bet delay), and the cash-outs, full or partial,
 * through the player's frame API or the partner's REST. Everything of one match runs one after the other; matches
 * run side by side.
 *
 * @packageDocumentation
 */
import type {
  BetView,
  CashOutOrderAnswer,
  CashOutQuote,
  PlaceBetRequest,
  SportEvent,
} from '@bookie/contracts';
import { format, mul, parseDecimal, type Rational, roundHalfUp } from '@bookie/core';
import type { Dispatcher } from 'undici';
import { type Bettor, chooseSelections } from './bettors.js';
import { callJson, type FrameApi, type WalletClient } from './clients.js';
import type { InPlayPlan, LiveBetPlan, PlannedCashOut } from './in-play.js';
import { marketId } from './markets.js';
import type { CashOutOutcome, LiveBetOutcome } from './outcomes.js';
import { Rng } from './prng.js';
import type { TradingCommand } from './season-script.js';

export type { CashOutOutcome, LiveBetOutcome } from './outcomes.js';

/** What {@link runInPlay} needs from the replay. */
export interface InPlayContext {
  seed: string;
  currency: string;
  /** Sends a trading command (the replay counts it and tracks the feed version). */
  send(command: TradingCommand): Promise<void>;
  frame: FrameApi;
  wallet: WalletClient;
  dispatcher: Dispatcher;
  baseUrl: string;
  partnerToken(): Promise<string>;
  /** The in-play population and their frame sessions (by position). */
  players: readonly Bettor[];
  sessions: readonly string[];
  /** Waits until the simulated time `at` is due (a no-op at max speed). */
  pace(at: number): Promise<void>;
  signal?: AbortSignal;
}

/** What {@link runInPlay} returns. */
export interface InPlayResult {
  bets: LiveBetOutcome[];
  cashOuts: CashOutOutcome[];
  commands: number;
}

const dec = (v: string): Rational => parseDecimal(v, { field: 'amount', maxDecimals: 12 });

/** Waits for `ok()` to hold, checking again after a short pause (condition, not clock); false after `limitMs`. */
async function until(ok: () => Promise<boolean>, limitMs: number, signal?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (let i = 0; ; i++) {
    signal?.throwIfAborted();
    if (await ok()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, Math.min(50, 5 + i * 5)));
  }
}

/** Plays one match in play. */
export async function runInPlay(
  ctx: InPlayContext,
  plan: InPlayPlan,
  matchIndex: number,
): Promise<InPlayResult> {
  const result: InPlayResult = { bets: [], cashOuts: [], commands: 0 };
  /** The values last sent for each market, to know when Bookie's catalog shows them. */
  const sent = new Map<string, Map<string, string>>();
  let betStop = true;
  const done = new Set<number>();

  const runStep = async (index: number) => {
    const step = plan.steps[index];
    if (!step || done.has(index)) return;
    done.add(index);
    const at = step.minute < 0 ? undefined : plan.minutes[Math.min(step.minute, plan.minutes.length - 1)]?.at;
    if (at !== undefined) await ctx.pace(at);
    for (const c of step.commands) {
      await ctx.send(c);
      result.commands++;
      if (c.kind === 'set_bet_stop') betStop = c.body.bet_stop;
      if (c.kind === 'patch_markets') {
        for (const mk of c.body.markets) {
          // a suspended market leaves the player's view: nothing of it to wait for
          if (mk.status !== undefined && mk.status !== 0) {
            sent.delete(mk.id);
            continue;
          }
          if (!mk.odds?.length) continue;
          const m = sent.get(mk.id) ?? new Map<string, string>();
          for (const o of mk.odds) if (o.value) m.set(o.id, o.value);
          sent.set(mk.id, m);
        }
      }
    }
  };

  /** Bookie's own catalog shows what was sent (bet stop, every value). */
  const caughtUp = (e: SportEvent) =>
    e.bet_stop === betStop &&
    [...sent].every(([mid, odds]) => {
      const m = e.markets[mid];
      return !!m && [...odds].every(([oid, v]) => m.odds[oid]?.value === v);
    });
  const current = async (session: string): Promise<SportEvent | undefined> => {
    let event: SportEvent | undefined;
    await until(
      async () => {
        event = await ctx.frame.getEvent(session, plan.sportEventId).catch(() => undefined);
        return !!event && caughtUp(event);
      },
      10_000,
      ctx.signal,
    );
    return event;
  };

  const liveBets = new Map<number, LiveBetOutcome>();
  const holdsOf = async (playerId: string) =>
    new Set(
      (await ctx.wallet.ledger(playerId)).filter((l) => l.kind === 'hold' && l.bet_id).map((l) => l.bet_id!),
    );

  /** Sends a live bet; resolves once Bookie holds it (its delay has started) with the answer still to come. */
  const sendBet = async (bet: LiveBetPlan) => {
    const bettor = ctx.players[bet.player]!;
    const session = ctx.sessions[bet.player]!;
    const m = plan.minutes[bet.minute]!;
    const outcome: LiveBetOutcome = {
      plan: {
        index: -1,
        key: bet.key,
        player: bet.player,
        type: 'single',
        legs: [matchIndex],
        stake: bet.stake,
        strategy: bet.strategy,
        at: m.at,
        intent: 'live',
      },
      playerId: bettor.id,
      live: { match: matchIndex, minute: m.label, during: bet.during, sentDuringDelay: false },
    };
    liveBets.set(bet.index, outcome);
    result.bets.push(outcome);
    const event = await current(session);
    const wanted =
      bet.market === '1x2'
        ? marketId('1x2')
        : Object.keys(event?.markets ?? {}).find((id) => id.startsWith('18:'));
    const shown =
      event && wanted && event.markets[wanted]
        ? { ...event, markets: { [wanted]: event.markets[wanted]! } }
        : undefined;
    const selections = shown
      ? chooseSelections(
          new Rng(`${bet.key}/choose`),
          { markets: { '1x2': 1, total: 1, asian_handicap: 0 }, favouriteBias: 1 },
          [shown],
        )
      : undefined;
    if (!selections) {
      outcome.skipped = 'no open market';
      return { answer: Promise.resolve(), outcome };
    }
    outcome.selections = selections;
    const body: PlaceBetRequest = {
      bet_type: 'single',
      selections,
      stake: bet.stake,
      currency: ctx.currency,
      odds_strategy: bet.strategy,
      client_key: bet.key,
    };
    const before = bet.during === 'none' ? undefined : await holdsOf(bettor.id);
    const answer = (async () => {
      const r = await ctx.frame.placeBetRetrying(session, body);
      if ('answer' in r) outcome.answer = r.answer;
      else outcome.error = r.error;
    })();
    if (before) {
      // the bet is held at the wallet before Bookie waits out its delay: the market moves now
      let settled = false;
      void answer.then(() => {
        settled = true;
      });
      await until(
        async () => settled || [...(await holdsOf(bettor.id))].some((id) => !before.has(id)),
        15_000,
        ctx.signal,
      );
      outcome.live.sentDuringDelay = !settled;
    }
    return { answer, outcome };
  };

  const cashOut = async (bet: LiveBetPlan, plan_: PlannedCashOut) => {
    const placed = liveBets.get(bet.index);
    const view: BetView | undefined = placed?.answer;
    if (!view || view.status !== 1 || !placed?.selections) return;
    const session = ctx.sessions[bet.player]!;
    const stake = dec(view.stake);
    const amount = plan_.kind === 'full' ? stake : roundHalfUp(mul(stake, dec('0.5')), 2);
    const out: CashOutOutcome = {
      betId: view.id,
      playerId: placed.playerId,
      match: matchIndex,
      minute: plan.minutes[plan_.minute]!.label,
      kind: plan_.kind,
      via: plan_.via,
      amount: format(amount, 6),
    };
    result.cashOuts.push(out);
    try {
      const event = await current(session);
      const sel = view.selections[0]!;
      const p = event?.markets[sel.market_id]?.odds[sel.odd_id]?.probability;
      const body = plan_.kind === 'full' ? {} : { amount: out.amount };
      const partner = plan_.via === 'partner' ? await ctx.partnerToken() : undefined;
      out.quote = partner
        ? await callJson<CashOutQuote>(
            ctx.dispatcher,
            'POST',
            `${ctx.baseUrl}/bets/${view.id}/cash-out-orders/calculate`,
            {
              token: partner,
              body,
            },
          )
        : await callJson<CashOutQuote>(
            ctx.dispatcher,
            'POST',
            `${ctx.baseUrl}/frame-api/bets/${view.id}/cash-out/calculate`,
            {
              token: session,
              body,
            },
          );
      if (!out.quote.available) return;
      if (p !== undefined) out.fair = format(mul(mul(dec(out.quote.amount), dec(sel.odds)), dec(p)), 12);
      const order = {
        amount: out.quote.amount,
        refund_amount: out.quote.refund_amount,
        ...(out.quote.quote_id ? { quote_id: out.quote.quote_id } : {}),
      };
      const answer = partner
        ? await callJson<CashOutOrderAnswer>(
            ctx.dispatcher,
            'POST',
            `${ctx.baseUrl}/bets/${view.id}/cash-out-orders/place`,
            {
              token: partner,
              body: { id: `${bet.key}-co`, ...order },
            },
          )
        : await callJson<CashOutOrderAnswer>(
            ctx.dispatcher,
            'POST',
            `${ctx.baseUrl}/frame-api/bets/${view.id}/cash-out/place`,
            {
              token: session,
              body: order,
            },
          );
      out.order = answer.order;
    } catch (err) {
      out.error = (err as Error).message;
    }
  };

  await runStep(0); // kick-off: the in-play prices, the markets open
  for (let i = 0; i < plan.minutes.length; i++) {
    ctx.signal?.throwIfAborted();
    await runStep(i + 1);
    // cash-outs due now
    for (const bet of plan.bets) if (bet.cashOut?.minute === i) await cashOut(bet, bet.cashOut);
    // live bets sent now: the steady ones one by one; those meant to see the market move, together, then the move
    const now = plan.bets.filter((b) => b.minute === i);
    for (const bet of now.filter((b) => b.during === 'none')) await (await sendBet(bet)).answer;
    const moving = now.filter((b) => b.during !== 'none');
    if (moving.length > 0) {
      const sentBets = [];
      for (const bet of moving) sentBets.push(await sendBet(bet));
      await runStep(i + 2);
      await Promise.all(sentBets.map((s) => s.answer));
    }
  }
  await runStep(plan.steps.length - 1); // the final whistle
  return result;
}
