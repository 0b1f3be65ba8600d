import type { BetView, SportEvent } from '@bookie/contracts';
import { useEffect } from 'preact/hooks';
import { BUILDER_MARKET_TYPES, builderEvent, type LegBlock, type SlipBuilder } from './builder.js';
import { type MessageKey, t } from './i18n.js';
import { betSelectionNames, eventTitle, marketName, outcomeName } from './markets.js';
import { priceText } from './odds.js';
import type { FrameStore } from './store.js';

const BLOCK_KEY: Record<LegBlock, MessageKey> = {
  sameMarket: 'builder.block.sameMarket',
  combination: 'builder.block.combination',
  unsupported: 'builder.block.unsupported',
  full: 'builder.block.full',
};

/** The names of a builder leg on an event of the book, in the player's language. */
function legName(locale: string, e: SportEvent | undefined, marketId: string, oddId: string): string {
  const m = e?.markets[marketId];
  const o = m?.odds[oddId];
  return e && m && o
    ? `${marketName(locale, e, m)}: ${outcomeName(locale, e, m, o)}`
    : `#${marketId}/${oddId}`;
}

/**
 * The event page's "Bet builder": the event's markets a builder takes, each odd a toggle showing the builder's odds
 * were it added, or disabled with why it cannot be; the combined odds of the legs picked (the calculator's, asked after
 * every pick); "Add to slip" puts the builder in the slip as one selection.
 */
export function BuilderPanel({ store, event }: { store: FrameStore; event: SportEvent }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const desk = store.builder;
  const on = builderEvent(event);
  useEffect(() => {
    if (on) desk.open(event.id);
  }, [desk, event.id, on]);
  if (!on) return null;
  const v = desk.view?.eventId === event.id ? desk.view : undefined;
  const markets = Object.values(event.markets).filter(
    (m) => BUILDER_MARKET_TYPES.has(m.type_id) && m.status === 0,
  );
  const price = (x: string | undefined) => (x ? (priceText(x, s.oddsFormat) ?? '—') : '');
  const ready = desk.slipBuilder();
  return (
    <details open class="card grp builder" data-testid="builder" aria-busy={v?.loading ?? true}>
      <summary>
        <h3>{tr('builder.title')}</h3>
      </summary>
      <p class="muted">{tr('builder.hint')}</p>
      {v && !v.available && v.refusal && v.legs.length === 0 && (
        <p class="msg" data-testid="builder-refusal">
          {tr('builder.unavailable')}
        </p>
      )}
      {markets.map((m) => (
        <div class="mk" data-testid="builder-market" data-market-id={m.id} key={m.id}>
          <span class="mn">{marketName(s.locale, event, m)}</span>
          {Object.values(m.odds).map((o) => {
            const st = desk.legState(m.id, o.id);
            const why = st.block ? tr(BLOCK_KEY[st.block]) : undefined;
            const disabled = !st.picked && (!!st.block || !v || (v.loading && !st.odds));
            return (
              <button
                type="button"
                class="odd"
                key={o.id}
                aria-pressed={st.picked}
                disabled={disabled}
                title={why}
                data-testid="builder-odd"
                data-odd-id={o.id}
                {...(why ? { 'data-block': st.block } : {})}
                onClick={() => desk.toggle(m.id, o.id)}
              >
                <span class="on">{outcomeName(s.locale, event, m, o)}</span>
                <b>{st.picked ? '✓' : price(st.odds)}</b>
                {why && <span class="sr">{why}</span>}
              </button>
            );
          })}
        </div>
      ))}
      {v && v.legs.length > 0 && (
        <div class="sel builder-sum" data-testid="builder-summary">
          <span>
            {tr('builder.legs', { n: v.legs.length })}
            {v.refusal && (
              <span class="chg" data-testid="builder-refusal">
                <br />
                {v.refusal.message}
              </span>
            )}
          </span>
          <b data-testid="builder-odds" aria-live="polite">
            {v.loading ? tr('builder.pricing') : price(v.odds)}
          </b>
        </div>
      )}
      {v?.error && <p class="msg">{v.error}</p>}
      <button
        type="button"
        class="place"
        data-testid="builder-add"
        disabled={!ready}
        onClick={() => store.addBuilder()}
      >
        {tr('builder.add')}
      </button>
    </details>
  );
}

/** A builder in the bet slip: one selection, its legs listed under the event, its combined odds, a remove button. */
export function SlipBuilderRow({ store, b }: { store: FrameStore; b: SlipBuilder }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const e = s.events[b.sportEventId];
  return (
    <div class="sel" data-testid="slip-builder">
      <span>
        {e ? eventTitle(e) : b.sportEventId}
        <br />
        <span class="muted">{tr('builder.title')}</span>
        <ul class="legs">
          {b.legs.map((l) => (
            <li key={`${l.marketId}/${l.oddId}`} data-testid="slip-builder-leg">
              {legName(s.locale, e, l.marketId, l.oddId)}
            </li>
          ))}
        </ul>
      </span>
      <b data-testid="slip-odds">{priceText(b.odds, s.oddsFormat) ?? '—'}</b>
      <button
        type="button"
        class="x"
        aria-label={`${tr('slip.remove')}: ${tr('builder.title')}`}
        onClick={() => store.setSlip({ builders: s.slip.builders.filter((y) => y !== b) })}
      >
        ×
      </button>
    </div>
  );
}

/** A bet builder as a placed bet shows it (its combined odds and inner legs). */
export interface PlacedBuilder {
  sport_event_id: string;
  odds: string;
  legs: BetView['selections'];
}

/** The builders of a placed bet (`bet_builders` of its view), none when it has none. */
export function placedBuilders(bet: unknown): PlacedBuilder[] {
  const b = (bet as { bet_builders?: unknown }).bet_builders;
  return Array.isArray(b) ? (b as PlacedBuilder[]) : [];
}

/** A placed bet's builders in "My bets" and the history: each with its legs and combined odds (grid cells). */
export function BetBuilderCells({ store, bet }: { store: FrameStore; bet: unknown }) {
  const s = store.state;
  return (
    <>
      {placedBuilders(bet).map((b, i) => {
        const first = b.legs[0];
        const event = first ? betSelectionNames(s.locale, first, s.events).event : b.sport_event_id;
        return [
          <span key={`b${i}n`} data-testid="history-builder">
            {event}
            <br />
            <span class="muted">{t(s.locale, 'builder.title')}</span>
            <ul class="legs">
              {b.legs.map((l) => {
                const n = betSelectionNames(s.locale, l, s.events);
                return (
                  <li key={`${l.market_id}/${l.odd_id}`} data-testid="history-builder-leg">
                    {n.market}: {n.outcome}
                  </li>
                );
              })}
            </ul>
          </span>,
          <span key={`b${i}v`}>{priceText(b.odds, s.oddsFormat) ?? '—'}</span>,
        ];
      })}
    </>
  );
}
