import type { BetView, CashOutOrder, CashOutOrderAnswer, CashOutQuote } from '@bookie/contracts';
import { partOfStake, sameAmount } from './money.js';

/** How often the open quotes are asked again while the open bets are on screen (a quote holds ~5 s, D43). */
export const POLL_MS = 4_000;
/** The shortest time between two quote requests of one bet, however often its odds move. */
export const MIN_GAP_MS = 1_000;
/** Quote requests in flight at once over all bets (never more than one per bet). */
export const CONCURRENCY = 2;

/** Bet types Bookie offers cash-out for (spec 03 "Cash out"). */
const CASHABLE = new Set(['single', 'express']);

/** The order the player is asked to confirm: exactly the quote on screen when they clicked. */
export interface PendingOrder {
  amount: string;
  refund: string;
  quoteId: string | undefined;
  /** Until when the server holds the quote (ISO 8601); after it, only an offer at least as high is accepted. */
  expiresAt: string | undefined;
  full: boolean;
}

/** What came of the last order on a bet. */
export type OrderOutcome =
  | { kind: 'accepted'; orderId: string; amount: string; refund: string; full: boolean }
  | { kind: 'declined'; reason: string }
  | { kind: 'error'; message: string };

/** The cash-out state of one bet, as the open-bets screen shows it. */
export interface BetCashOut {
  /** The last quote of the whole remaining stake (kept while a new one is asked: no flicker). */
  full: CashOutQuote | undefined;
  /** The stake still in play, from the last quote (every quote carries it, offered or not). */
  remaining: string | undefined;
  /** The partial amount chosen on the slider; undefined while the partial panel is closed. */
  partAmount: string | undefined;
  /** The slider's position (percent of the remaining stake) that chose it. */
  partPercent: number;
  /** The last quote of a partial amount (compare its `amount` with `partAmount`). */
  part: CashOutQuote | undefined;
  confirming: PendingOrder | undefined;
  placing: boolean;
  outcome: (OrderOutcome & { betId: string }) | undefined;
}

/** What the desk needs from the frame: the frame API, the player's bets, and a way to say something changed. */
export interface CashOutHost {
  call<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  bets(): BetView[];
  changed(): void;
  /** After an accepted order: the host re-reads the bets and tells the page the balance moved. */
  cashedOut(bet: BetView, outcome: { amount: string; refund: string; full: boolean }): void;
}

/** Reasons for which Bookie offers no cash-out on a bet at all: the player sees no cash-out button for it. */
const NEVER_OFFERED = new Set(['cash_out_unavailable', 'foreign_selections']);

/** True when the quote says this bet is never offered a cash-out here (the operator pays none, or foreign legs). */
export function neverOffered(q: CashOutQuote | undefined): boolean {
  return q !== undefined && !q.available && NEVER_OFFERED.has(q.reason ?? '');
}

/**
 * The bet's latest cash-out order when Bookie reversed it because the operator could not be paid for it (declined
 * `partner_unsupported`): the player's stake is back in play and they are told so.
 */
export function reversedOrder(b: BetView): CashOutOrder | undefined {
  const last = b.cash_out_orders?.[b.cash_out_orders.length - 1];
  return last?.status.code === 'declined' && last.status.reason === 'partner_unsupported' ? last : undefined;
}

/** True for a bet still in play: accepted, or unsettled again (spec 01 bet statuses 1 and 4). */
export function isOpen(b: BetView): boolean {
  return b.status === 1 || b.status === 4;
}

/** True when Bookie may offer a cash-out on the bet (an open single or express). */
export function isCashable(b: BetView): boolean {
  return isOpen(b) && CASHABLE.has(b.bet_type);
}

const empty = (): BetCashOut => ({
  full: undefined,
  remaining: undefined,
  partAmount: undefined,
  partPercent: 50,
  part: undefined,
  confirming: undefined,
  placing: false,
  outcome: undefined,
});

/**
 * Keeps the cash-out quotes of the player's open bets fresh while the open-bets screen is on (`start`/`stop`): every
 * {@link POLL_MS}, and when the odds of one of a bet's events move (`oddsMoved`). One quote request per bet at a time
 * (a request asked while one runs is run once after it), none sooner than {@link MIN_GAP_MS} after the last, and at
 * most {@link CONCURRENCY} in flight in all. A bet being confirmed or placed is not re-quoted: the player confirms
 * exactly the amount shown. Orders go with the quote's id and amounts (D43).
 */
export class CashOutDesk {
  readonly state: Record<string, BetCashOut> = {};
  private readonly queue: string[] = [];
  private readonly inFlight = new Set<string>();
  private readonly again = new Set<string>();
  private readonly lastAsked = new Map<string, number>();
  private readonly waiting = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly dismissedOrders = new Set<string>();
  private poll: ReturnType<typeof setInterval> | undefined;
  private running = false;

  constructor(
    private readonly host: CashOutHost,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The state of bet `id` (an empty one until it has a quote). */
  of(id: string): BetCashOut {
    return this.state[id] ?? empty();
  }

  /** True while quote requests are being made. */
  get active(): boolean {
    return this.running;
  }

  /** The open-bets screen is shown: quote every open bet now and then every {@link POLL_MS}. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.refreshAll();
    this.poll = setInterval(() => this.refreshAll(), POLL_MS);
  }

  /**
   * The screen is gone: no more requests (those in flight finish and are kept). A confirmation left open is
   * dropped: its quote would be stale when the player comes back.
   */
  stop(): void {
    this.running = false;
    for (const [id, s] of Object.entries(this.state))
      if (s.confirming && !s.placing) this.state[id] = { ...s, confirming: undefined };
    clearInterval(this.poll);
    for (const t of this.waiting.values()) clearTimeout(t);
    this.waiting.clear();
    this.queue.length = 0;
    this.again.clear();
  }

  /** The odds of `sportEventId` moved: re-quote the open bets with a selection on it. */
  oddsMoved(sportEventId: string): void {
    if (!this.running) return;
    for (const b of this.host.bets())
      if (isCashable(b) && b.selections.some((s) => s.sport_event_id === sportEventId)) this.refresh(b.id);
  }

  refreshAll(): void {
    for (const b of this.host.bets()) if (isCashable(b)) this.refresh(b.id);
  }

  /** Asks for a new quote of bet `id`, within the limits above. */
  refresh(id: string): void {
    if (!this.running) return;
    if (this.inFlight.has(id)) {
      this.again.add(id);
      return;
    }
    if (this.queue.includes(id) || this.waiting.has(id)) return;
    const wait = (this.lastAsked.get(id) ?? -Infinity) + MIN_GAP_MS - this.now();
    if (wait > 0) {
      this.waiting.set(
        id,
        setTimeout(() => {
          this.waiting.delete(id);
          this.refresh(id);
        }, wait),
      );
      return;
    }
    this.queue.push(id);
    this.pump();
  }

  private pump(): void {
    while (this.running && this.inFlight.size < CONCURRENCY && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.inFlight.add(id);
      this.lastAsked.set(id, this.now());
      void this.quote(id).finally(() => {
        this.inFlight.delete(id);
        if (this.again.delete(id)) this.refresh(id);
        this.pump();
      });
    }
  }

  private patch(id: string, p: Partial<BetCashOut>): void {
    this.state[id] = { ...this.of(id), ...p };
    this.host.changed();
  }

  private calculate(id: string, amount?: string): Promise<CashOutQuote> {
    return this.host.call<CashOutQuote>(`/frame-api/bets/${encodeURIComponent(id)}/cash-out/calculate`, {
      method: 'POST',
      body: amount === undefined ? {} : { amount },
    });
  }

  private async quote(id: string): Promise<void> {
    const busy = () => {
      const s = this.of(id);
      return s.confirming !== undefined || s.placing;
    };
    if (busy()) return;
    try {
      const full = await this.calculate(id);
      if (busy()) return;
      const partAmount = this.of(id).partAmount;
      const part = partAmount !== undefined ? await this.calculate(id, partAmount) : undefined;
      if (busy()) return;
      const now = this.of(id);
      // the slider moved while asking: that part quote is for an amount no longer chosen
      this.patch(id, {
        full,
        remaining: full.remaining_stake,
        ...(part && now.partAmount !== undefined && sameAmount(part.amount, now.partAmount) ? { part } : {}),
      });
    } catch {
      // a failed quote keeps the last one on screen until the next refresh; placing re-checks on the server anyway
    }
  }

  /**
   * Opens the partial panel or moves its slider: `percent` of `remaining` (see {@link partOfStake}); undefined
   * closes it. A percent that gives no partial amount changes nothing.
   */
  choosePart(id: string, percent: number | undefined, remaining: string): void {
    if (percent === undefined) {
      this.patch(id, { partAmount: undefined, part: undefined });
      return;
    }
    const amount = partOfStake(remaining, percent);
    if (amount === undefined) return;
    this.patch(id, { partAmount: amount, partPercent: percent });
    this.refresh(id);
  }

  /** The player clicked a cash-out button: ask them to confirm exactly the quote on screen. */
  ask(id: string, which: 'full' | 'part'): void {
    const s = this.of(id);
    const q = which === 'full' ? s.full : s.part;
    if (!q?.available || (which === 'part' && !(s.partAmount && sameAmount(q.amount, s.partAmount)))) return;
    this.patch(id, {
      confirming: {
        amount: q.amount,
        refund: q.refund_amount,
        quoteId: q.quote_id,
        expiresAt: q.expires_at,
        full: which === 'full',
      },
      outcome: undefined,
    });
  }

  cancel(id: string): void {
    this.patch(id, { confirming: undefined });
    this.refresh(id);
  }

  /** Places the confirmed order with its quote; the answer says accepted or declined with a reason. */
  async confirm(id: string): Promise<void> {
    const s = this.of(id);
    const order = s.confirming;
    if (!order || s.placing) return;
    this.patch(id, { placing: true });
    let outcome: OrderOutcome;
    try {
      const { order: o } = await this.host.call<CashOutOrderAnswer>(
        `/frame-api/bets/${encodeURIComponent(id)}/cash-out/place`,
        {
          method: 'POST',
          body: {
            amount: order.amount,
            refund_amount: order.refund,
            ...(order.quoteId ? { quote_id: order.quoteId } : {}),
          },
        },
      );
      outcome =
        o.status.code === 'accepted'
          ? { kind: 'accepted', orderId: o.id, amount: o.amount, refund: o.refund_amount, full: order.full }
          : { kind: 'declined', reason: o.status.reason ?? 'price_moved' };
    } catch (err) {
      outcome = { kind: 'error', message: err instanceof Error ? err.message : String(err) };
    }
    this.patch(id, {
      placing: false,
      confirming: undefined,
      outcome: { ...outcome, betId: id },
      ...(outcome.kind === 'accepted' ? { partAmount: undefined, part: undefined } : {}),
      // the offer just declined is not shown again as the new one: the button waits for the next quote
      ...(outcome.kind === 'declined' ? { full: undefined, part: undefined } : {}),
    });
    const bet = this.host.bets().find((b) => b.id === id);
    if (outcome.kind === 'accepted' && bet) this.host.cashedOut(bet, outcome);
    if (outcome.kind === 'accepted' && order.full) return;
    // the new offer (declined) or the remaining stake (partial) shows at once
    this.lastAsked.delete(id);
    this.refresh(id);
  }

  /** The last outcome of a bet that has left the open list (a full cash-out), for the screen's top line. */
  closedOutcomes(openIds: Set<string>): (OrderOutcome & { betId: string })[] {
    return Object.values(this.state)
      .map((s) => s.outcome)
      .filter((o): o is OrderOutcome & { betId: string } => o !== undefined && !openIds.has(o.betId));
  }

  /** Forgets an outcome once the player has read it (dismissed); `orderId` names a reversed order read too. */
  dismiss(id: string, orderId?: string): void {
    if (orderId) this.dismissedOrders.add(orderId);
    this.patch(id, { outcome: undefined });
  }

  /**
   * What the open bet says of its last order: a reversed order (see {@link reversedOrder}) the player has not
   * dismissed, in place of the acceptance shown before it or when nothing else is shown; else the last outcome.
   */
  outcomeOf(bet: BetView): (OrderOutcome & { betId: string; orderId?: string }) | undefined {
    const co = this.of(bet.id);
    const reversed = reversedOrder(bet);
    const replaces =
      reversed !== undefined &&
      !this.dismissedOrders.has(reversed.id) &&
      (co.outcome === undefined || (co.outcome.kind === 'accepted' && co.outcome.orderId === reversed.id));
    if (reversed && replaces)
      return { kind: 'declined', reason: 'partner_unsupported', betId: bet.id, orderId: reversed.id };
    return co.outcome;
  }

  /**
   * The server says the bet changed (live stream): the stake in play comes from the bet again until a new quote,
   * asked at once (a reversed cash-out gives the stake back).
   */
  betChanged(bet: BetView): void {
    if (!this.state[bet.id]) return;
    this.patch(bet.id, { remaining: undefined });
    if (isCashable(bet)) {
      this.lastAsked.delete(bet.id);
      this.refresh(bet.id);
    }
  }
}
