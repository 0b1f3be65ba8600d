import {
  compare,
  formatFeedOddValue,
  isPastShadeThreshold,
  min,
  outcomeKey,
  parseDecimal,
  phaseOf,
  type Rational,
  type ShadingSettings,
  shadedOdds,
} from '@bookie/core';
import type { Logger } from 'pino';
import { runTradingCommand, type TradingDeps } from '../trading/index.js';
import type { RiskBook } from './risk-book.js';
import { liabilityLimitOf } from './risk-book.js';
import { readShading, readShadingCandidates, recordShadingPublished, writeShading } from './shading.repo.js';

/** An odd (outcome) of the book. */
export interface OddRef {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
}

const dec = (s: string) => parseDecimal(s, { field: 'odds', maxDecimals: 12, allowNegative: true });
/** An odd's key: its outcome's key in one phase (the phase is the same for every odd, so the ids alone tell). */
const keyOf = (r: OddRef) =>
  outcomeKey({
    phase: 'prematch',
    sport_event_id: r.sport_event_id,
    market_id: r.market_id,
    odd_id: r.odd_id,
  });

/**
 * Odds shading (D39; docs/adr/0018-risk-engine.md): after exposure of outcomes changed, publishes for each the odds
 * {@link shadedOdds} gives — the most shaded over the white labels' exposure against their limits, in the event's
 * current phase — through the trading writer as an ordinary `match_update`, and records the base odds trading set.
 * A published value that differs from the shaded value last published was set by trading: it becomes the base.
 * Work is queued and done one batch at a time, after the changes that caused it commit.
 */
export class OddsShader {
  private readonly pending = new Map<string, OddRef>();
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      trading: TradingDeps;
      book: RiskBook;
      settings: ShadingSettings;
      logger: Logger;
    },
  ) {}

  /** Queues outcomes whose exposure changed. */
  kick(refs: Iterable<OddRef>): void {
    for (const r of refs) {
      this.pending.set(keyOf(r), {
        sport_event_id: r.sport_event_id,
        market_id: r.market_id,
        odd_id: r.odd_id,
      });
    }
    if (this.pending.size > 0) this.running ??= this.drain();
  }

  /**
   * How long a first change waits for others before the shader looks (ms): shading follows exposure within a blink,
   * and the accepts of that blink cost one look instead of one each.
   */
  static readonly COALESCE_MS = 50;

  /** Resolves once nothing is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      await new Promise((r) => setTimeout(r, OddsShader.COALESCE_MS));
      while (this.pending.size > 0) {
        const batch = [...this.pending.values()];
        this.pending.clear();
        try {
          await this.shade(batch);
        } catch (err) {
          this.deps.logger.error({ err }, 'odds shading failed');
        }
      }
    } finally {
      this.running = undefined;
    }
  }

  /** Brings the published odds of these outcomes to what their exposure calls for. */
  async shade(refs: readonly OddRef[]): Promise<void> {
    const settings = await this.deps.book.get();
    const db = this.deps.trading.database.db;
    const { exposure, shaded } = await readShadingCandidates(db, refs);
    // only outcomes past the shading threshold of their limit, or shaded now, need the trading writer
    const limited = new Set(
      exposure
        .filter((e) =>
          isPastShadeThreshold(
            dec(e.amount),
            liabilityLimitOf(settings, e.white_label_id, e.market_type_id, e.phase),
            this.deps.settings,
          ),
        )
        .map(keyOf),
    );
    const shadedNow = new Set(shaded.map(keyOf));
    const todo = refs.filter((r) => limited.has(keyOf(r)) || shadedNow.has(keyOf(r)));
    if (todo.length === 0) return;
    const byEvent = new Map<string, OddRef[]>();
    for (const r of todo) byEvent.set(r.sport_event_id, [...(byEvent.get(r.sport_event_id) ?? []), r]);
    await runTradingCommand(this.deps.trading, async (t) => {
      const rows = new Map((await readShading(t.tx, todo)).map((r) => [keyOf(r), r]));
      for (const [eventId, odds] of byEvent) {
        const event = await t.find(eventId);
        if (!event) continue;
        const phase = phaseOf(event);
        const changes: Record<string, string> = {};
        for (const ref of odds) {
          const market = Object.hasOwn(event.markets, ref.market_id)
            ? event.markets[ref.market_id]
            : undefined;
          const odd = market && Object.hasOwn(market.odds, ref.odd_id) ? market.odds[ref.odd_id] : undefined;
          if (!market || !odd) continue;
          const current = dec(odd.value);
          const row = rows.get(keyOf(ref));
          const base = row && compare(dec(row.shaded_odds), current) === 0 ? dec(row.base_odds) : current;
          let desired: Rational = base;
          for (const e of exposure) {
            if (e.sport_event_id !== ref.sport_event_id || e.market_id !== ref.market_id) continue;
            if (e.odd_id !== ref.odd_id || e.phase !== phase) continue;
            const limit = liabilityLimitOf(settings, e.white_label_id, String(market.type_id), phase);
            desired = min(desired, shadedOdds(base, dec(e.amount), limit, this.deps.settings));
          }
          // a resulted or inactive odd is not lowered any more, only given back its base
          if (compare(desired, base) < 0 && (odd.status !== 0 || !odd.is_active)) desired = current;
          if (compare(desired, current) !== 0) {
            changes[`markets/${ref.market_id}/odds/${ref.odd_id}/value`] = formatFeedOddValue(desired);
            if (compare(desired, base) < 0) {
              await recordShadingPublished(
                t.tx,
                { ...ref, market_type_id: String(market.type_id) },
                { base: formatFeedOddValue(base), shaded: formatFeedOddValue(desired) },
              );
            }
          }
          if (compare(desired, base) === 0) {
            if (row) await writeShading(t.tx, ref, null);
          } else {
            await writeShading(t.tx, ref, {
              base: formatFeedOddValue(base),
              shaded: formatFeedOddValue(desired),
            });
          }
        }
        if (Object.keys(changes).length > 0) await t.matchUpdate(eventId, changes);
      }
    });
  }
}
