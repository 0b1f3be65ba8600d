import type {
  BuilderCalculateAnswer,
  BuilderRefusal,
  BuilderSelectionsAnswer,
  SportEvent,
} from '@bookie/contracts';

/**
 * The market types a bet builder takes (docs/adr/0042-bet-builder-pricing.md): 1X2, double chance, draw no bet,
 * European and Asian handicaps, totals and team totals, both teams to score, correct score.
 */
export const BUILDER_MARKET_TYPES: ReadonlySet<number> = new Set([1, 10, 11, 14, 16, 18, 19, 20, 29, 45]);

/** Whether the event can carry a builder in the frame: football, not started, bets not stopped. */
export function builderEvent(e: SportEvent): boolean {
  return e.fixture.sport_id === 'football' && e.fixture.status === 0 && !e.bet_stop;
}

/** A leg picked for a builder: the market and the odd (the market's specifiers go with it). */
export interface BuilderLegPick {
  marketId: string;
  oddId: string;
  specifiers?: Record<string, string>;
}

/** A builder in the bet slip: one selection of the slip, its legs on one event at the quoted combined odds. */
export interface SlipBuilder {
  sportEventId: string;
  legs: BuilderLegPick[];
  /** The combined odds the player saw (6 decimals). */
  odds: string;
  /** The signed quote of these odds, when the calculator gave one. */
  quote?: string;
}

/** The builder being built on an event page: its legs and the calculator's last answer. */
export interface BuilderView {
  eventId: string;
  legs: BuilderLegPick[];
  /** Whether the event and these legs take a builder. */
  available: boolean;
  refusal?: BuilderRefusal;
  /** The combined odds of the legs (none while no leg is picked). */
  odds?: string;
  quote?: string;
  /** The odds that can still join, keyed `market/odd`, with the builder's odds once they do. */
  addable: Record<string, string>;
  loading: boolean;
  error?: string;
}

/** Why an odd cannot join the builder now. */
export type LegBlock = 'sameMarket' | 'combination' | 'unsupported' | 'full';

const key = (marketId: string, oddId: string) => `${marketId}/${oddId}`;

/**
 * A builder as the frame's place route takes it in `bet_builders`: the event, the legs (market, specifiers, odd), the
 * combined odds the player saw and the quote. The one place the frame writes that shape.
 */
export function builderSelectionBody(b: SlipBuilder): Record<string, unknown> {
  return {
    sport_event_id: b.sportEventId,
    legs: b.legs.map((l) => ({
      market_id: l.marketId,
      ...(l.specifiers && Object.keys(l.specifiers).length > 0 ? { specifiers: l.specifiers } : {}),
      odd_id: l.oddId,
    })),
    odds: b.odds,
    ...(b.quote ? { quote: b.quote } : {}),
  };
}

/** What the builder desk needs of the frame. */
export interface BuilderDeskDeps {
  call<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  event(id: string): SportEvent | undefined;
  changed(): void;
}

/**
 * The bet builder of the event page: picks legs, asks the calculator (`/frame-api/bet-builder/selections` with no leg,
 * `/calculate` with some) after every change, and keeps only the answer to the latest question.
 */
export class BuilderDesk {
  view: BuilderView | undefined;
  private asked = 0;

  constructor(private readonly deps: BuilderDeskDeps) {}

  /** Starts (or keeps) the builder of `eventId`. */
  open(eventId: string): void {
    if (this.view?.eventId === eventId) return;
    this.view = { eventId, legs: [], available: true, addable: {}, loading: true };
    void this.refresh();
  }

  /** Adds the odd as a leg, or removes it when it is one. */
  toggle(marketId: string, oddId: string): void {
    const v = this.view;
    if (!v) return;
    const had = v.legs.some((l) => l.marketId === marketId && l.oddId === oddId);
    const specifiers = this.deps.event(v.eventId)?.markets[marketId]?.specifiers;
    this.view = {
      ...v,
      legs: had
        ? v.legs.filter((l) => !(l.marketId === marketId && l.oddId === oddId))
        : [...v.legs, { marketId, oddId, ...(specifiers ? { specifiers } : {}) }],
      loading: true,
    };
    void this.refresh();
  }

  /** Empties the builder. */
  clear(): void {
    if (!this.view) return;
    this.view = { ...this.view, legs: [], odds: undefined, quote: undefined, loading: true };
    void this.refresh();
  }

  /** Whether the odd is a leg, the odds the builder would have with it, or why it cannot join. */
  legState(marketId: string, oddId: string): { picked: boolean; odds?: string; block?: LegBlock } {
    const v = this.view;
    if (!v) return { picked: false, block: 'unsupported' };
    if (v.legs.some((l) => l.marketId === marketId && l.oddId === oddId)) return { picked: true };
    const odds = v.addable[key(marketId, oddId)];
    if (odds) return { picked: false, odds };
    if (v.legs.some((l) => l.marketId === marketId)) return { picked: false, block: 'sameMarket' };
    if (v.legs.length === 0) return { picked: false, block: 'unsupported' };
    if (v.available && Object.keys(v.addable).length === 0) return { picked: false, block: 'full' };
    return { picked: false, block: 'combination' };
  }

  /** The builder as a slip selection, when it is priced. */
  slipBuilder(): SlipBuilder | undefined {
    const v = this.view;
    if (!v || v.loading || !v.available || !v.odds || v.legs.length === 0) return undefined;
    return { sportEventId: v.eventId, legs: v.legs, odds: v.odds, ...(v.quote ? { quote: v.quote } : {}) };
  }

  /** Asks the calculator about the current legs. */
  async refresh(): Promise<void> {
    const v = this.view;
    if (!v) return;
    const asked = ++this.asked;
    this.deps.changed();
    const legs = builderSelectionBody({ sportEventId: v.eventId, legs: v.legs, odds: '' }).legs;
    try {
      const a =
        v.legs.length === 0
          ? await this.deps.call<BuilderSelectionsAnswer>('/frame-api/bet-builder/selections', {
              method: 'POST',
              body: { sport_event_id: v.eventId },
            })
          : await this.deps.call<BuilderCalculateAnswer>('/frame-api/bet-builder/calculate', {
              method: 'POST',
              body: { sport_event_id: v.eventId, legs },
            });
      if (asked !== this.asked || this.view?.eventId !== v.eventId) return;
      const addable: Record<string, string> = {};
      for (const s of a.selections) addable[key(s.market_id, s.odd_id)] = s.odds;
      const priced = v.legs.length > 0 ? (a as BuilderCalculateAnswer) : undefined;
      this.view = {
        eventId: v.eventId,
        legs: this.view.legs,
        available: a.available,
        ...(a.refusal ? { refusal: a.refusal } : {}),
        ...(priced?.odds ? { odds: priced.odds } : {}),
        ...(priced?.quote ? { quote: priced.quote } : {}),
        addable,
        loading: false,
      };
    } catch (err) {
      if (asked !== this.asked || !this.view) return;
      this.view = {
        ...this.view,
        loading: false,
        error: err instanceof Error ? err.message : String(err),
      };
    }
    this.deps.changed();
  }
}
