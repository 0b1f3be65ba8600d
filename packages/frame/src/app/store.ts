import type { BetView, FramePlayerBonus, SportEvent } from '@bookie/contracts';
import { compare } from '@bookie/core/decimal';
import type { FrameBanner, FrameEventName, FrameOptions } from '../types.js';
import type { BuilderDesk } from './builder.js';
import { CashOutDesk } from './cash-out.js';
import { framePath, parseFramePath } from './frame-path.js';
import { t } from './i18n.js';
import { afterCashOut } from './money.js';
import { applyOddsChanges, exact } from './odds-updates.js';
import { originAllowed } from './origin.js';
import { maxBetQuery, placeSlip } from './placement.js';
import { addBuilderToSlip, builderDeskOf, slipCount } from './slip-builders.js';
import { sseParser } from './sse.js';
import {
  type FrameState,
  initialState,
  type Nav,
  type Route,
  type SlipSelection,
  saveStrategy,
} from './state.js';

export type { BetType, FrameState, HistoryFilter, Nav, PlaceResult, Route, SlipSelection } from './state.js';

/**
 * The frame's state and its conversation with Bookie: the frame API over `fetch` with `Authorization: Bearer`
 * (no token in a URL), the live stream read from a `fetch` body, the token lifecycle (a refused token asks the host's
 * `onTokenExpired` for a new one and the request is repeated once; the bet slip is kept), and the host events.
 */
export class FrameStore {
  state: FrameState;
  private token: string;
  private readonly apiUrl: string;
  private readonly listeners = new Set<() => void>();
  private readonly handlers = new Map<FrameEventName, Set<(p: unknown) => void>>();
  private stream: AbortController | undefined;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private readonly timeouts = new Set<ReturnType<typeof setTimeout>>();
  private refreshing: Promise<void> | undefined;
  private destroyed = false;
  private retryMs = 500;
  private readonly startedAt = performance.now();
  /** The cash-out quotes and orders of the open bets (the "My bets" screen starts and stops its refresh). */
  readonly cashOut: CashOutDesk;
  /** The bet builder of the event page being looked at. */
  readonly builder: BuilderDesk;

  constructor(private readonly options: FrameOptions & { apiUrl: string }) {
    this.token = options.token;
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.state = initialState(options);
    if (options.route) this.navigate(options.route, false);
    this.builder = builderDeskOf(this);
    this.cashOut = new CashOutDesk({
      call: <T>(path: string, init?: { method?: string; body?: unknown }) => this.call<T>(path, init),
      bets: () => this.state.history,
      changed: () => this.set({}),
      cashedOut: (bet, o) => {
        // the bet as the order left it at once (a full cash-out ends it, status 7, with what both orders paid); the
        // list is read again to show what the server holds
        this.set({ history: this.state.history.map((b) => (b.id === bet.id ? afterCashOut(b, o) : b)) });
        this.emit('balance_changed', { bet_id: bet.id, cash_out: o.refund });
        void this.loadHistory().catch(() => {});
      },
    });
  }

  // --- state -------------------------------------------------------------------------------------------------

  /** Calls `fn` after every change; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  set(patch: Partial<FrameState>): void {
    if (this.destroyed) return;
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  setSlip(patch: Partial<FrameState['slip']>): void {
    this.set({ slip: { ...this.state.slip, ...patch }, result: undefined });
    if (patch.selections || patch.builders || patch.type || patch.sizes || patch.strategy) this.checkMaxBet();
  }

  /** Says `text` to screen readers (the frame's polite live region). */
  say(text: string): void {
    // the same text twice is still announced: the region is emptied first
    this.set({ announce: '' });
    queueMicrotask(() => this.set({ announce: text }));
  }

  /** Adds the selection to the slip, or removes it when it is already there. */
  toggle(sel: SlipSelection): void {
    const same = (x: SlipSelection) =>
      x.sportEventId === sel.sportEventId && x.marketId === sel.marketId && x.oddId === sel.oddId;
    const had = this.state.slip.selections.some(same);
    const rest = this.state.slip.selections.filter((x) => !same(x));
    this.setSlip({ selections: had ? rest : [...rest, sel] });
  }

  /** Adds the builder being built to the slip as one selection, and starts a new one on the same event. */
  addBuilder(): void {
    addBuilderToSlip(this, this.builder);
  }

  /** How many selections the slip holds: plain odds and builders, one each. */
  slipCount(): number {
    return slipCount(this.state.slip);
  }

  /** The odds now of a slip selection (from the book), or the odds it was added at when the book has it no more. */
  oddsNow(sel: SlipSelection): string {
    return this.state.events[sel.sportEventId]?.markets[sel.marketId]?.odds[sel.oddId]?.value ?? sel.odds;
  }

  /** The slip's selections whose odds moved since the player took them, with the old and the new odds. */
  changes(): { sel: SlipSelection; now: string; up: boolean }[] {
    const out: { sel: SlipSelection; now: string; up: boolean }[] = [];
    for (const sel of this.state.slip.selections) {
      const now = this.oddsNow(sel);
      try {
        const c = compare(exact(now), exact(sel.odds));
        if (c !== 0) out.push({ sel, now, up: c > 0 });
      } catch {
        // a price that cannot be read is not a change the player can accept
      }
    }
    return out;
  }

  /**
   * Whether the slip waits for the player to accept its odds changes, as the chosen strategy says: 3 (any change)
   * never waits, 2 (higher odds) waits for a drop, 1 (small changes) waits for any change the frame has seen.
   */
  mustAccept(): boolean {
    const ch = this.changes();
    if (this.state.slip.strategy === 3) return false;
    if (this.state.slip.strategy === 2) return ch.some((c) => !c.up);
    return ch.length > 0;
  }

  /** Takes the odds now of every slip selection as the odds the player bets at. */
  acceptChanges(): void {
    this.setSlip({ selections: this.state.slip.selections.map((x) => ({ ...x, odds: this.oddsNow(x) })) });
  }

  private maxBetTimer: ReturnType<typeof setTimeout> | undefined;
  private maxBetAsked = 0;

  /** Asks Bookie for the largest stake the slip can place now (debounced); shown before placing. */
  checkMaxBet(): void {
    clearTimeout(this.maxBetTimer);
    const { slip, currency } = this.state;
    const q = maxBetQuery(slip, currency);
    if (q === undefined) {
      if (this.state.maxBet !== undefined) this.set({ maxBet: undefined });
      return;
    }
    const asked = ++this.maxBetAsked;
    this.maxBetTimer = setTimeout(() => {
      this.call<{ max_bet: { value: string } | null }>(`/frame-api/restrictions?${q}`).then(
        (r) => {
          if (asked === this.maxBetAsked) this.set({ maxBet: r.max_bet?.value });
        },
        () => {
          if (asked === this.maxBetAsked) this.set({ maxBet: undefined });
        },
      );
    }, 250);
  }

  /** Host events (D49). */
  subscribe(event: FrameEventName, handler: (p: unknown) => void): () => void {
    const set = this.handlers.get(event) ?? new Set();
    this.handlers.set(event, set);
    set.add(handler);
    return () => set.delete(handler);
  }

  emit(event: FrameEventName, payload: unknown): void {
    for (const h of this.handlers.get(event) ?? []) {
      try {
        h(payload);
      } catch (err) {
        console.error('bookie frame: a host handler failed', err);
      }
    }
  }

  // --- the frame API -------------------------------------------------------------------------------------------

  /** A frame API call; a refused token is renewed through the host once, then the call is repeated. */
  async call<T>(path: string, init: { method?: string; body?: unknown } = {}, retried = false): Promise<T> {
    const res = await fetch(this.apiUrl + path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    if (res.status === 401 && !retried) {
      await this.renewToken();
      return this.call(path, init, true);
    }
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = (body as { error?: { message?: string } }).error;
      throw new Error(err?.message ?? `HTTP ${res.status}`);
    }
    return body as T;
  }

  /** Asks the host for a new token (D49 `onTokenExpired`); without one, `login_required` and the session ends. */
  renewToken(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        if (!this.options.onTokenExpired) throw new Error('no onTokenExpired');
        const token = await this.options.onTokenExpired();
        if (typeof token !== 'string' || token === '') throw new Error('onTokenExpired gave no token');
        this.token = token;
        this.set({ sessionEnded: false });
        this.restartStream();
      } catch (err) {
        this.set({ sessionEnded: true });
        this.emit('login_required', {});
        throw err;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Switches token, locale or currency (D49) without a reload; the slip is kept. */
  async updateBettingOptions(o: { token?: string; locale?: string; currency?: string }): Promise<void> {
    this.set({
      ...(o.locale ? { locale: o.locale } : {}),
      ...(o.currency ? { currency: o.currency } : {}),
    });
    if (o.token && o.token !== this.token) {
      this.token = o.token;
      this.set({ sessionEnded: false });
      this.restartStream();
      await Promise.all([this.loadBonuses(), this.loadHistory()]).catch(() => {});
    }
    if (o.locale) await this.loadBanners().catch(() => {});
  }

  async start(): Promise<void> {
    this.startStream();
    await Promise.all([
      this.loadEvents(),
      this.loadBonuses().catch(() => {}),
      this.loadBanners().catch(() => {}),
      this.loadHistory().catch(() => {}),
    ]);
    // fixture states (prematch → live), new and closed events: a light refresh; odds come through the stream
    this.timers.push(setInterval(() => void this.loadEvents().catch(() => {}), 20_000));
  }

  async loadEvents(): Promise<void> {
    const { items } = await this.call<{ items: SportEvent[] }>('/frame-api/sport-events?limit=300');
    const events: Record<string, SportEvent> = {};
    for (const e of items) events[e.id] = e;
    const first = !this.state.eventsLoaded;
    this.set({ events, eventsLoaded: true });
    // the first render of the event list, for the host and the budget test (measured, never asserted)
    if (first)
      requestAnimationFrame(() => performance.measure('bookie:first-events', { start: this.startedAt }));
  }

  async loadHistory(): Promise<void> {
    const page = await this.call<{ items: BetView[] }>('/frame-api/bets?limit=50');
    this.set({ history: page.items });
  }

  async loadBonuses(): Promise<void> {
    const { items } = await this.call<{ items: FramePlayerBonus[] }>('/frame-api/bonuses');
    this.set({ bonuses: items });
  }

  async loadBanners(): Promise<void> {
    const placement = 'top';
    const banners = this.options.getBanners
      ? await this.options.getBanners({ locale: this.state.locale, placement })
      : (
          await this.call<{ banners: FrameBanner[] }>(
            `/frame-api/banners?placement=${placement}&locale=${encodeURIComponent(this.state.locale.slice(0, 2))}`,
          )
        ).banners;
    this.set({ banners });
  }

  // --- the live stream -----------------------------------------------------------------------------------------

  private restartStream(): void {
    this.stream?.abort();
    this.startStream();
  }

  private startStream(): void {
    if (this.destroyed) return;
    const ctl = new AbortController();
    this.stream = ctl;
    const again = () => {
      if (this.destroyed || ctl.signal.aborted || this.state.sessionEnded) return;
      this.set({ offline: true });
      const t = setTimeout(() => {
        if (this.stream === ctl) this.startStream();
      }, this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
      ctl.signal.addEventListener('abort', () => clearTimeout(t));
    };
    (async () => {
      const res = await fetch(`${this.apiUrl}/frame-api/stream`, {
        headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' },
        signal: ctl.signal,
      });
      if (res.status === 401) {
        await this.renewToken().catch(() => {});
        return;
      }
      if (!res.ok || !res.body) throw new Error(`stream: HTTP ${res.status}`);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parse = sseParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const ev of parse(value)) this.onStreamEvent(ev.event, ev.data);
      }
      again();
    })().catch((err) => {
      // a browser reports a CORS refusal as a bare TypeError, like a network failure: ask Bookie which it is
      if (!(err instanceof TypeError) || ctl.signal.aborted) return again();
      void originAllowed(this.apiUrl, this.token).then((ok) => {
        if (ok !== false) return again();
        if (this.stream === ctl) this.set({ blocked: location.origin, offline: false });
      });
    });
  }

  private onStreamEvent(event: string, data: string): void {
    const body = JSON.parse(data) as Record<string, unknown>;
    if (event === 'ready') {
      this.retryMs = 500;
      if (this.state.offline) {
        this.set({ offline: false });
        void this.loadEvents().catch(() => {});
      }
    } else if (event === 'odds')
      this.applyOdds(body as { sport_event_id: string; changes: Record<string, unknown> });
    else if (event === 'bet') this.onBet(body as unknown as BetView);
    else if (event === 'session_ended') void this.renewToken().catch(() => {});
  }

  private applyOdds(u: { sport_event_id: string; changes: Record<string, unknown> }): void {
    const e = this.state.events[u.sport_event_id];
    if (!e) return;
    const { next, moved } = applyOddsChanges(e, u.changes);
    this.set({
      events: { ...this.state.events, [e.id]: next },
      moved: { ...this.state.moved, ...moved },
    });
    this.cashOut.oddsMoved(e.id);
    const keys = Object.keys(moved);
    if (keys.length > 0) {
      // the arrows fade (CSS) and are gone after a few seconds
      const fade = setTimeout(() => {
        this.timeouts.delete(fade);
        const left = { ...this.state.moved };
        for (const k of keys) if (left[k] === moved[k]) delete left[k];
        this.set({ moved: left });
      }, 4000);
      this.timeouts.add(fade);
      const inSlip = this.state.slip.selections.filter((x) =>
        keys.includes(`${x.sportEventId}/${x.marketId}/${x.oddId}`),
      );
      if (inSlip.length > 0) this.say(t(this.state.locale, 'announce.oddsChanged'));
    }
  }

  private onBet(change: BetView): void {
    // a change that does not list the cash-out orders keeps those already known
    const known = this.state.history.find((b) => b.id === change.id);
    const bet =
      change.cash_out_orders === undefined && known?.cash_out_orders
        ? { ...change, cash_out_orders: known.cash_out_orders }
        : change;
    const history = [bet, ...this.state.history.filter((b) => b.id !== bet.id)];
    this.set({ history });
    this.cashOut.betChanged(bet);
    if (bet.status === 3) this.emit('bet_settled', bet);
    if (bet.status !== 0) this.emit('balance_changed', { bet_id: bet.id });
  }

  // --- placing -------------------------------------------------------------------------------------------------

  /** Places the slip: one bet per selection for singles, one express or system bet otherwise. */
  async place(): Promise<void> {
    await placeSlip(this);
  }

  setStrategy(strategy: 1 | 2 | 3): void {
    saveStrategy(strategy);
    this.setSlip({ strategy });
  }

  route(route: Route): void {
    this.set({ route, nav: { ...this.state.nav, eventId: undefined } });
    this.emit('route_changed', { route, path: this.path() });
    if (route === 'history') void this.loadHistory().catch(() => {});
  }

  /** Sets where the player is in the book (sport, tournament, event, search) and tells the host. */
  go(nav: Partial<Nav>): void {
    this.set({ nav: { ...this.state.nav, ...nav } });
    this.emit('route_changed', { route: this.state.route, path: this.path() });
  }

  /** The frame's place as a path a host can keep and open again with {@link navigate}. */
  path(): string {
    return framePath(this.state.route, this.state.nav);
  }

  /**
   * Opens a place of the frame from a path (a host's deep link): `/upcoming`, `/live`, `/history`, `/event/{id}`,
   * `{/upcoming|/live}/sport/{sport}[/{tournament id}]`, `{/upcoming|/live}/search/{text}`.
   *
   * @throws RangeError naming the path when it is none of these.
   */
  navigate(path: string, announce = true): void {
    const { route, nav } = parseFramePath(path, this.state.events);
    if (nav.eventId && !this.state.events[nav.eventId]) void this.loadEvent(nav.eventId);
    this.set({ route, nav });
    if (announce) this.emit('route_changed', { route, path: this.path() });
    if (route === 'history') void this.loadHistory().catch(() => {});
  }

  /** Loads one event the list does not hold yet (a deep link to it). */
  private async loadEvent(id: string): Promise<void> {
    try {
      const e = await this.call<SportEvent>(`/frame-api/sport-events/${encodeURIComponent(id)}`);
      this.set({ events: { ...this.state.events, [e.id]: e } });
    } catch {
      // not on the book: the event page says so
    }
  }

  /** Quick bet: a tap on a price asks to confirm placing the quick stake on it; `undefined` switches it off. */
  setQuickBet(stake: string | undefined): void {
    this.set({ quickBet: stake, quick: undefined });
  }

  /** Places the quick bet waiting for confirmation: a single at the quick stake. */
  async placeQuick(): Promise<void> {
    const sel = this.state.quick;
    const stake = this.state.quickBet;
    if (!sel || !stake) return;
    const kept = this.state.slip;
    this.set({
      quick: undefined,
      slip: { ...kept, type: 'single', selections: [sel], builders: [], stake, bonusId: '' },
    });
    await this.place();
    // the slip the player had is back (minus nothing: the quick bet never was in it)
    this.set({ slip: { ...kept } });
  }

  destroy(): void {
    this.destroyed = true;
    this.cashOut.stop();
    this.stream?.abort();
    for (const t of this.timers) clearInterval(t);
    for (const t of this.timeouts) clearTimeout(t);
    clearTimeout(this.maxBetTimer);
    this.listeners.clear();
    this.handlers.clear();
  }
}
