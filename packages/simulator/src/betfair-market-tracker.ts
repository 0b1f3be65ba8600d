/**
 * Follows one market of a Betfair recording (docs/adr/0027-betfair-odds-stream.md): per runner, the last traded price
 * (`ltp`) and the back ladder (`atb` deltas, `batb` levels), and the market definition's status, in-play flag and
 * runner statuses. A runner's price is its last traded price, else its best price available to back.
 */
import { compare, parseDecimal } from '@bookie/core';
import type { McmMarketDefinition, McmMessage } from './betfair-mcm.js';

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
