import type { BetView, Market, Odd, SportEvent } from '@bookie/contracts';
import { format, mul, parseDecimal, product, sum } from '@bookie/core/decimal';
import { displayOdds, ODDS_FORMATS, type OddsFormat } from '@bookie/core/odds-format';
import { useEffect, useState } from 'preact/hooks';
import { isOpen } from './cash-out.js';
import { type MessageKey, reasonText, t } from './i18n.js';
import { eventName, fill } from './labels.js';
import { money, sameAmount } from './money.js';
import { oddButtonState, oddsFormatOf, priceText } from './odds.js';
import { OpenBets } from './open-bets.js';
import type { FrameStore, SlipSelection } from './store.js';
import { CSS, paletteVars } from './styles.js';

const OPEN = 0; // odd and market status "active" (spec 02)

function useStore(store: FrameStore) {
  const [, setTick] = useState(0);
  useEffect(() => store.onChange(() => setTick((n) => n + 1)), [store]);
  return store.state;
}

function exactOdds(v: string) {
  return parseDecimal(v, { field: 'odds', maxDecimals: 12 });
}

/** A price shown where nothing can be clicked (history, slip lines): the decimal when the format cannot show it. */
function shown(v: string, f: OddsFormat): string {
  return priceText(v, f) ?? '—';
}

function nCr(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** The whole frame. */
export function App({ store }: { store: FrameStore }) {
  const s = useStore(store);
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  return (
    <div class="bk" style={paletteVars(s.palette)} lang={s.locale} data-testid="frame">
      <style>{CSS}</style>
      {s.banners.map((b) => (
        <a
          class="banner"
          href={b.link_url}
          target="_blank"
          rel="noopener noreferrer"
          key={b.id}
          data-testid="banner"
        >
          <img src={b.image_url} alt={b.title} />
        </a>
      ))}
      <div class="bar" role="tablist">
        {(['prematch', 'live', 'history'] as const).map((r) => (
          <button
            type="button"
            class="tab"
            role="tab"
            aria-selected={s.route === r}
            data-testid={`tab-${r}`}
            onClick={() => store.route(r)}
            key={r}
          >
            {tr(`nav.${r}`)}
          </button>
        ))}
        <span class="grow" />
        <label class="muted" for="bk-odds">
          {tr('settings.odds')}
        </label>
        <select
          id="bk-odds"
          data-testid="odds-format"
          value={s.oddsFormat}
          onChange={(e) => store.set({ oddsFormat: oddsFormatOf((e.target as HTMLSelectElement).value) })}
        >
          {ODDS_FORMATS.map((f) => (
            <option value={f} key={f}>
              {tr(`odds.${f}`)}
            </option>
          ))}
        </select>
      </div>
      {s.blocked && (
        <div class="msg no" role="alert" data-testid="origin-not-allowed">
          {tr('origin.notAllowed', { origin: s.blocked })}
        </div>
      )}
      {s.sessionEnded && <div class="msg no">{tr('session.expired')}</div>}
      {s.offline && !s.sessionEnded && !s.blocked && <div class="msg muted">{tr('offline')}</div>}
      <div class="main">
        <div>{s.route === 'history' ? <History store={store} /> : <Events store={store} />}</div>
        <Slip store={store} />
      </div>
    </div>
  );
}

function Events({ store }: { store: FrameStore }) {
  const s = store.state;
  const tr = (k: MessageKey) => t(s.locale, k);
  if (!s.eventsLoaded) return <p class="muted">{tr('events.loading')}</p>;
  const wanted = s.route === 'live' ? 1 : 0;
  const list = Object.values(s.events)
    .filter((e) => e.fixture.status === wanted)
    .sort((a, b) => a.fixture.start_time.localeCompare(b.fixture.start_time));
  if (list.length === 0)
    return (
      <p class="muted" data-testid="no-events">
        {tr('events.empty')}
      </p>
    );
  // sport → tournament → events
  const groups = new Map<string, SportEvent[]>();
  for (const e of list) {
    const key = `${e.fixture.sport_id} · ${e.fixture.tournament.name}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return (
    <div data-testid="events">
      {[...groups].map(([name, events]) => (
        <section key={name}>
          <div class="tn">{name}</div>
          {events.slice(0, 30).map((e) => (
            <EventCard store={store} event={e} key={e.id} />
          ))}
        </section>
      ))}
    </div>
  );
}

function EventCard({ store, event }: { store: FrameStore; event: SportEvent }) {
  const s = store.state;
  const when = new Date(event.fixture.start_time).toLocaleString(s.locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  });
  return (
    <div class="card ev" data-testid="event" data-event-id={event.id}>
      <h3>
        {event.fixture.status === 1 && <span class="live">{t(s.locale, 'events.live')}</span>}
        {eventName(event)} <span class="time">{when} UTC</span>
      </h3>
      {Object.values(event.markets)
        .slice(0, 3)
        .map((m) => (
          <div class="mk" key={m.id} data-market-id={m.id}>
            <span class="mn">{fill(m.template, event, m)}</span>
            {Object.values(m.odds).map((o) => (
              <OddButton store={store} event={event} market={m} odd={o} key={o.id} />
            ))}
          </div>
        ))}
    </div>
  );
}

function OddButton({
  store,
  event,
  market,
  odd,
}: {
  store: FrameStore;
  event: SportEvent;
  market: Market;
  odd: Odd;
}) {
  const s = store.state;
  const same = (x: SlipSelection) =>
    x.sportEventId === event.id && x.marketId === market.id && x.oddId === odd.id;
  const picked = s.slip.selections.some(same);
  const open = !event.bet_stop && market.status === OPEN && odd.status === OPEN && odd.is_active;
  const toggle = () => {
    const rest = store.state.slip.selections.filter((x) => !same(x));
    store.setSlip({
      selections: picked
        ? rest
        : [...rest, { sportEventId: event.id, marketId: market.id, oddId: odd.id, odds: odd.value }],
    });
  };
  // a price the frame cannot show is never clickable: nobody bets blind
  const price = oddButtonState(odd.value, s.oddsFormat, open);
  return (
    <button
      type="button"
      class={`odd ${s.moved[`${event.id}/${market.id}/${odd.id}`] ?? ''}`}
      aria-pressed={picked}
      disabled={price.disabled}
      onClick={toggle}
      data-testid="odd"
      data-odd-id={odd.id}
    >
      <span>{fill(odd.template, event, market)}</span>
      <b data-testid="odd-value">{price.text}</b>
    </button>
  );
}

function selectionLabel(
  store: FrameStore,
  sel: SlipSelection,
): { event: string; odd: string; value: string } {
  const e = store.state.events[sel.sportEventId];
  const m = e?.markets[sel.marketId];
  const o = m?.odds[sel.oddId];
  return {
    event: e ? eventName(e) : sel.sportEventId,
    odd: e && m && o ? `${fill(m.template, e, m)}: ${fill(o.template, e, m)}` : sel.oddId,
    // the odds the player sees now (live); the bet is placed at these with the acceptance strategy
    value: o?.value ?? sel.odds,
  };
}

function Slip({ store }: { store: FrameStore }) {
  const s = store.state;
  const { slip } = s;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const n = slip.selections.length;
  const events = new Set(slip.selections.map((x) => x.sportEventId)).size;
  const combo = slip.type !== 'single';
  const tooFew = combo && (n < 2 || events < n);
  // a selection whose price cannot be shown cannot be bet on
  const unpriced = slip.selections.some(
    (x) => priceText(selectionLabel(store, x).value, s.oddsFormat) === undefined,
  );
  let totalOdds: string | undefined;
  let payout: string | undefined;
  try {
    const values = slip.selections.map((x) => exactOdds(selectionLabel(store, x).value));
    const stake = parseDecimal(slip.stake.trim().replace(',', '.') || '0', {
      field: 'stake',
      maxDecimals: 6,
    });
    if (slip.type === 'express' && n > 1) {
      const total = product(values);
      totalOdds = displayOdds(total, s.oddsFormat);
      payout = format(mul(stake, total), 2);
    } else if (slip.type === 'single' && n > 0) {
      payout = format(sum(values.map((v) => mul(stake, v))), 2);
    }
  } catch {
    // a stake being typed: no payout shown
  }
  const sizes = Array.from({ length: Math.max(0, n - 2) }, (_, i) => i + 2);
  const combinations =
    slip.type === 'system' ? slip.sizes.reduce((a, k) => a + (k < n ? nCr(n, k) : 0), 0) : 0;
  return (
    <div class="card slip" data-testid="slip">
      <h2>{tr('slip.title')}</h2>
      <div class="bar">
        {(['single', 'express', 'system'] as const).map((bt) => (
          <button
            type="button"
            class="tab"
            aria-pressed={slip.type === bt}
            onClick={() => store.setSlip({ type: bt })}
            data-testid={`type-${bt}`}
            key={bt}
          >
            {tr(`slip.${bt}`)}
          </button>
        ))}
      </div>
      {n === 0 ? (
        <p class="muted">{tr('slip.empty')}</p>
      ) : (
        <button
          type="button"
          class="x"
          data-testid="clear"
          onClick={() => store.setSlip({ selections: [], bonusId: '' })}
        >
          {tr('slip.clear')}
        </button>
      )}
      {slip.selections.map((x) => {
        const l = selectionLabel(store, x);
        return (
          <div class="sel" key={`${x.sportEventId}/${x.marketId}/${x.oddId}`} data-testid="slip-selection">
            <span>
              {l.event}
              <br />
              <span class="muted">{l.odd}</span>
            </span>
            <b>{shown(l.value, s.oddsFormat)}</b>
            <button
              type="button"
              class="x"
              title={tr('slip.remove')}
              onClick={() => store.setSlip({ selections: slip.selections.filter((y) => y !== x) })}
            >
              ×
            </button>
          </div>
        );
      })}
      {slip.type === 'system' && sizes.length > 0 && (
        <div class="row" data-testid="system-sizes">
          <span>{tr('slip.sizes')}</span>
          <span>
            {sizes.map((k) => (
              <label key={k}>
                <input
                  type="checkbox"
                  checked={slip.sizes.includes(k)}
                  data-testid={`size-${k}`}
                  onChange={() =>
                    store.setSlip({
                      sizes: slip.sizes.includes(k)
                        ? slip.sizes.filter((z) => z !== k)
                        : [...slip.sizes, k].sort((a, b) => a - b),
                    })
                  }
                />
                {k}/{n}{' '}
              </label>
            ))}
          </span>
        </div>
      )}
      {tooFew && n > 0 && <p class="muted">{tr('slip.needTwo')}</p>}
      <div class="row">
        <label for="bk-stake">{tr('slip.stake', { currency: s.currency })}</label>
        <input
          id="bk-stake"
          inputMode="decimal"
          data-testid="stake"
          value={slip.stake}
          onInput={(e) => store.setSlip({ stake: (e.target as HTMLInputElement).value })}
        />
      </div>
      <div class="row">
        <label for="bk-strategy">{tr('slip.strategy')}</label>
        <select
          id="bk-strategy"
          data-testid="strategy"
          value={String(slip.strategy)}
          onChange={(e) => store.setStrategy(Number((e.target as HTMLSelectElement).value) as 1 | 2 | 3)}
        >
          {([1, 2, 3] as const).map((k) => (
            <option value={k} key={k}>
              {tr(`slip.strategy.${k}`)}
            </option>
          ))}
        </select>
      </div>
      {s.bonuses.length > 0 && (
        <div class="row">
          <label for="bk-bonus">{tr('slip.bonus')}</label>
          <select
            id="bk-bonus"
            data-testid="bonus"
            value={slip.bonusId}
            onChange={(e) => store.setSlip({ bonusId: (e.target as HTMLSelectElement).value })}
          >
            <option value="">{tr('slip.bonus.none')}</option>
            {s.bonuses.map((b) => (
              <option value={b.id} key={b.id}>
                {tr(`slip.bonus.${b.kind}`, { name: b.name, value: b.value })}
              </option>
            ))}
          </select>
        </div>
      )}
      {totalOdds && (
        <div class="row">
          <span>{tr('slip.totalOdds')}</span>
          <b data-testid="total-odds">{totalOdds}</b>
        </div>
      )}
      {combinations > 0 && <div class="row muted">{tr('slip.combinations', { n: combinations })}</div>}
      {payout && slip.stake.trim() !== '' && (
        <div class="row">
          <span>{tr('slip.potential')}</span>
          <b>
            {payout} {s.currency}
          </b>
        </div>
      )}
      <button
        type="button"
        class="place"
        data-testid="place"
        disabled={
          n === 0 ||
          tooFew ||
          unpriced ||
          s.placing ||
          slip.stake.trim() === '' ||
          s.sessionEnded ||
          !!s.blocked
        }
        onClick={() => void store.place()}
      >
        {s.placing ? tr('slip.placing') : tr('slip.place')}
      </button>
      <Result store={store} />
    </div>
  );
}

function Result({ store }: { store: FrameStore }) {
  const s = store.state;
  const r = s.result;
  if (!r) return null;
  if ('error' in r)
    return (
      <div class="msg no" data-testid="result" data-result="error">
        {t(s.locale, 'result.error', { message: r.error })}
      </div>
    );
  return (
    <div data-testid="result">
      {r.bets.map((b) =>
        b.status === 1 ? (
          <div class="msg ok" data-result="accepted" key={b.id}>
            {t(s.locale, 'result.accepted')} · {b.bet_type} · {b.stake.replace(/0{1,4}$/, '')} {b.currency}
          </div>
        ) : (
          <div class="msg no" data-result="declined" key={b.id}>
            <b>{t(s.locale, 'result.declined')}</b>
            {b.restrictions.map((x, i) => (
              <div data-testid="reason" key={i}>
                {reasonText(s.locale, x)}
              </div>
            ))}
          </div>
        ),
      )}
    </div>
  );
}

function History({ store }: { store: FrameStore }) {
  const s = store.state;
  const tr = (k: MessageKey) => t(s.locale, k);
  if (s.history.length === 0) return <p class="muted">{tr('history.empty')}</p>;
  const done = s.history.filter((b) => !isOpen(b));
  return (
    <div data-testid="history">
      <OpenBets store={store} />
      {done.length > 0 && <h2 class="sh">{tr('mybets.settled')}</h2>}
      {done.map((b: BetView) => (
        <div class="card" data-testid="history-bet" data-bet-id={b.id} data-status={b.status} key={b.id}>
          <div class="row">
            <b class="bt">
              {b.bet_type}
              {b.bet_type === 'system' ? ` ${b.system_sizes.join(',')}/${b.selections.length}` : ''}
            </b>
            <span class={b.status === 2 || b.status === 11 ? 'no' : b.status === 3 ? 'ok' : ''}>
              {tr(`status.${b.status}` as MessageKey)}
              {b.settle_type ? ` · ${tr(`settle.${b.settle_type}` as MessageKey)}` : ''}
            </span>
          </div>
          <div class="hb">
            {b.selections.map((x) => {
              const e = s.events[x.sport_event_id];
              const m = e?.markets[x.market_id];
              const o = m?.odds[x.odd_id];
              return [
                <span key={`${x.odd_id}n`}>
                  {e && m && o ? `${eventName(e)} · ${fill(o.template, e, m)}` : x.odd_id}
                </span>,
                <span key={`${x.odd_id}v`}>{shown(x.odds, s.oddsFormat)}</span>,
              ];
            })}
            <span class="muted">{tr('history.stake')}</span>
            <span>
              {money(b.stake)} {b.currency}
            </span>
            {b.cashed_out_refund &&
              !sameAmount(b.cashed_out_refund, '0') && [
                <span class="muted" key="cl">
                  {tr('history.cashedOut')}
                </span>,
                <span data-testid="cashed-out-amount" key="cv">
                  {money(b.cashed_out_refund)} {b.currency}
                </span>,
              ]}
            {b.settle_amount !== null && [
              <span class="muted" key="sl">
                {tr('history.settled')}
              </span>,
              <span data-testid="settled-amount" key="sv">
                {money(b.settle_amount)} {b.currency}
              </span>,
            ]}
          </div>
        </div>
      ))}
    </div>
  );
}
