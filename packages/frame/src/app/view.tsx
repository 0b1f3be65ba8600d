import type { BetView } from '@bookie/contracts';
import { format, mul, parseDecimal } from '@bookie/core/decimal';
import { displayOdds, ODDS_FORMATS, type OddsFormat } from '@bookie/core/odds-format';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Book, EventPage } from './book.js';
import { BetBuilderCells, placedBuilders, SlipBuilderRow } from './builder-view.js';
import { isOpen } from './cash-out.js';
import { dirOf, type MessageKey, reasonText, rootCause, t } from './i18n.js';
import { betSelectionNames, eventTitle, marketName, outcomeName } from './markets.js';
import { money, sameAmount } from './money.js';
import { oddsFormatOf, priceText } from './odds.js';
import { OpenBets } from './open-bets.js';
import { slipFigures } from './slip-math.js';
import type { FrameStore, HistoryFilter, SlipSelection } from './store.js';
import { CSS, paletteVars } from './styles.js';

function useStore(store: FrameStore) {
  const [, setTick] = useState(0);
  useEffect(() => store.onChange(() => setTick((n) => n + 1)), [store]);
  return store.state;
}

/** A price shown where nothing can be clicked (history, slip lines): the decimal when the format cannot show it. */
function shown(v: string, f: OddsFormat): string {
  return priceText(v, f) ?? '—';
}

/** The whole frame. */
export function App({ store }: { store: FrameStore }) {
  const s = useStore(store);
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  return (
    <div class="bk" style={paletteVars(s.palette)} lang={s.locale} dir={dirOf(s.locale)} data-testid="frame">
      <style>{CSS}</style>
      <output class="sr" aria-live="polite" aria-atomic="true" data-testid="announce">
        {s.announce}
      </output>
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
      <div class="bar">
        <nav class="tabs" aria-label={tr('nav.sports')}>
          {(['prematch', 'live', 'history'] as const).map((r) => (
            <button
              type="button"
              class="tab"
              aria-current={s.route === r && !s.nav.eventId ? 'page' : undefined}
              aria-pressed={s.route === r}
              data-testid={`tab-${r}`}
              onClick={() => store.route(r)}
              key={r}
            >
              {tr(`nav.${r}`)}
            </button>
          ))}
        </nav>
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
      {s.quickBet && (
        <p class="msg quick-on" data-testid="quick-on">
          {tr('quick.on', { stake: money(s.quickBet, s.currency), currency: s.currency })}
        </p>
      )}
      {s.blocked && (
        <div class="msg no" role="alert" data-testid="origin-not-allowed">
          {tr('origin.notAllowed', { origin: s.blocked })}
        </div>
      )}
      {s.sessionEnded && <div class="msg no">{tr('session.expired')}</div>}
      {s.offline && !s.sessionEnded && !s.blocked && <div class="msg muted">{tr('offline')}</div>}
      <div class="main">
        <main class="content">
          {s.route === 'history' ? (
            <History store={store} />
          ) : s.nav.eventId ? (
            <EventPage store={store} id={s.nav.eventId} />
          ) : (
            <Book store={store} />
          )}
        </main>
        <Slip store={store} />
      </div>
      {s.quick && <QuickConfirm store={store} sel={s.quick} />}
    </div>
  );
}

/** The names of a selection in the slip, in the player's language. */
function slipNames(
  store: FrameStore,
  sel: SlipSelection,
): { event: string; market: string; outcome: string } {
  const s = store.state;
  const e = s.events[sel.sportEventId];
  const m = e?.markets[sel.marketId];
  const o = m?.odds[sel.oddId];
  return {
    event: e ? eventTitle(e) : sel.sportEventId,
    market: e && m ? marketName(s.locale, e, m) : `#${sel.marketId}`,
    outcome: e && m && o ? outcomeName(s.locale, e, m, o) : `#${sel.oddId}`,
  };
}

/** Quick bet: a tap on a price asks once, then places the quick stake on it. */
function QuickConfirm({ store, sel }: { store: FrameStore; sel: SlipSelection }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  const n = slipNames(store, sel);
  return (
    <div class="overlay">
      <div
        class="card dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="bk-quick"
        data-testid="quick-confirm"
        onKeyDown={(e) => {
          if (e.key === 'Escape') store.set({ quick: undefined });
        }}
      >
        <p id="bk-quick">
          {tr('quick.confirm', {
            stake: money(s.quickBet ?? '0', s.currency),
            currency: s.currency,
            name: `${n.event} · ${n.market}: ${n.outcome}`,
            odds: shown(sel.odds, s.oddsFormat),
          })}
        </p>
        <div class="co-row">
          <button
            type="button"
            class="place"
            ref={yes}
            data-testid="quick-yes"
            onClick={() => void store.placeQuick()}
          >
            {tr('quick.yes')}
          </button>
          <button
            type="button"
            class="tab"
            data-testid="quick-no"
            onClick={() => store.set({ quick: undefined })}
          >
            {tr('quick.no')}
          </button>
        </div>
      </div>
    </div>
  );
}

const PRESETS = ['5', '10', '25', '50'];

function Slip({ store }: { store: FrameStore }) {
  const s = store.state;
  const { slip } = s;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const cur = s.currency;
  const n = slip.selections.length + slip.builders.length;
  const events = new Set([
    ...slip.selections.map((x) => x.sportEventId),
    ...slip.builders.map((b) => b.sportEventId),
  ]).size;
  const combo = slip.type !== 'single';
  const tooFew = combo && (n < 2 || events < n);
  // a selection whose price cannot be shown cannot be bet on
  const unpriced = slip.selections.some((x) => priceText(store.oddsNow(x), s.oddsFormat) === undefined);
  const changes = store.changes();
  const mustAccept = store.mustAccept();
  const bonus = s.bonuses.find((b) => b.id === slip.bonusId);
  // the odds the bet goes in at: those the player accepted
  const f = slipFigures(
    slip.type,
    slip.stake,
    [...slip.selections.map((x) => x.odds), ...slip.builders.map((b) => b.odds)],
    slip.sizes,
    bonus?.kind === 'freebet',
  );
  const sizes = Array.from({ length: Math.max(0, n - 2) }, (_, i) => i + 2);
  const typed = slip.stake.trim() !== '';
  const last = s.result && 'bets' in s.result ? s.result : undefined;
  return (
    <aside
      class={`card slip${s.sheetOpen ? ' open' : ''}`}
      data-testid="slip"
      aria-labelledby="bk-slip-title"
    >
      <button
        type="button"
        class="sheet-toggle"
        data-testid="slip-toggle"
        aria-expanded={s.sheetOpen}
        onClick={() => store.set({ sheetOpen: !s.sheetOpen })}
      >
        <span>{tr('slip.open', { n })}</span>
        {f.payout && typed && (
          <b>
            {money(f.payout, cur)} {cur}
          </b>
        )}
        <span aria-hidden="true">{s.sheetOpen ? '▾' : '▴'}</span>
      </button>
      <div class="sheet-body">
        <h2 id="bk-slip-title">{tr('slip.title')}</h2>
        <fieldset class="bar plain">
          <legend class="sr">{tr('slip.title')}</legend>
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
        </fieldset>
        {n === 0 ? (
          last ? null : (
            <p class="muted">{tr('slip.empty')}</p>
          )
        ) : (
          <button
            type="button"
            class="x"
            data-testid="clear"
            onClick={() => store.setSlip({ selections: [], builders: [], bonusId: '' })}
          >
            {tr('slip.clear')}
          </button>
        )}
        {slip.selections.map((x) => {
          const l = slipNames(store, x);
          const change = changes.find((c) => c.sel === x);
          return (
            <div class="sel" key={`${x.sportEventId}/${x.marketId}/${x.oddId}`} data-testid="slip-selection">
              <span>
                {l.event}
                <br />
                <span class="muted">
                  {l.market}: {l.outcome}
                </span>
                {change && (
                  <span class="chg" data-testid="odds-change">
                    <br />
                    {tr('slip.changed')}:{' '}
                    {tr('slip.oldNew', {
                      old: shown(x.odds, s.oddsFormat),
                      now: shown(change.now, s.oddsFormat),
                    })}
                  </span>
                )}
              </span>
              <b>
                {change && <s class="was">{shown(x.odds, s.oddsFormat)}</s>}{' '}
                <span class={change ? (change.up ? 'up' : 'down') : ''} data-testid="slip-odds">
                  {shown(change ? change.now : x.odds, s.oddsFormat)}
                </span>
              </b>
              <button
                type="button"
                class="x"
                aria-label={`${tr('slip.remove')}: ${l.outcome}`}
                onClick={() => store.setSlip({ selections: slip.selections.filter((y) => y !== x) })}
              >
                ×
              </button>
            </div>
          );
        })}
        {slip.builders.map((b, i) => (
          <SlipBuilderRow store={store} b={b} key={`b${i}`} />
        ))}
        {slip.type === 'system' && sizes.length > 0 && (
          <fieldset class="row sizes" data-testid="system-sizes">
            <legend>{tr('slip.sizes')}</legend>
            {sizes.map((k) => (
              <label key={k} class="chk">
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
                {k}/{n}
              </label>
            ))}
          </fieldset>
        )}
        {tooFew && n > 0 && <p class="muted">{tr('slip.needTwo')}</p>}
        <div class="row">
          <label for="bk-stake">{tr('slip.stake', { currency: cur })}</label>
          <input
            id="bk-stake"
            inputMode="decimal"
            autoComplete="off"
            data-testid="stake"
            value={slip.stake}
            onInput={(e) => store.setSlip({ stake: (e.target as HTMLInputElement).value })}
          />
        </div>
        <fieldset class="presets plain">
          <legend class="sr">{tr('slip.presets')}</legend>
          {PRESETS.map((p) => (
            <button
              type="button"
              class="chip"
              key={p}
              data-testid="preset"
              aria-pressed={slip.stake === p}
              onClick={() => store.setSlip({ stake: p })}
            >
              {p}
            </button>
          ))}
          {s.maxBet && (
            <button
              type="button"
              class="chip"
              data-testid="preset-max"
              onClick={() => store.setSlip({ stake: money(s.maxBet!, cur) })}
            >
              {tr('slip.maxStake', { amount: money(s.maxBet, cur), currency: cur })}
            </button>
          )}
        </fieldset>
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
        <dl class="figs">
          {f.totalOdds && [
            <dt key="tl">{tr('slip.totalOdds')}</dt>,
            <dd key="tv" data-testid="total-odds">
              {displayOdds(f.totalOdds, s.oddsFormat)}
            </dd>,
          ]}
          {f.combinations !== undefined && [
            <dt key="cl">{tr('slip.combinationsN')}</dt>,
            <dd key="cv" data-testid="combinations">
              {f.combinations}
            </dd>,
          ]}
          {f.perCombination && [
            <dt key="pl">{tr('slip.perCombination')}</dt>,
            <dd key="pv" data-testid="per-combination">
              {money(f.perCombination, cur)} {cur}
            </dd>,
          ]}
          {f.payout &&
            typed && [
              <dt key="ol">{tr(slip.type === 'system' ? 'slip.maxPayout' : 'slip.potential')}</dt>,
              <dd key="ov" data-testid="payout">
                {money(f.payout, cur)} {cur}
              </dd>,
            ]}
        </dl>
        {bonus && typed && (
          <p class="msg bonus-effect" data-testid="bonus-effect">
            {bonus.kind === 'freebet' && f.freebetWin
              ? tr('slip.freebetEffect', { amount: money(f.freebetWin, cur), currency: cur })
              : bonus.kind === 'insurance'
                ? tr('slip.insuranceEffect', { amount: bonus.value })
                : bonus.kind === 'boost'
                  ? tr('slip.boostEffect', { value: bonus.value })
                  : null}
          </p>
        )}
        {mustAccept ? (
          <div>
            <p class="msg" data-testid="accept-hint">
              {tr('slip.acceptHint')}
            </p>
            <button
              type="button"
              class="place"
              data-testid="accept-changes"
              onClick={() => store.acceptChanges()}
            >
              {tr('slip.accept')}
            </button>
          </div>
        ) : (
          <button
            type="button"
            class="place"
            data-testid="place"
            disabled={n === 0 || tooFew || unpriced || s.placing || !typed || s.sessionEnded || !!s.blocked}
            onClick={() => void store.place()}
          >
            {s.placing ? tr('slip.placing') : tr('slip.place')}
          </button>
        )}
        <Result store={store} />
      </div>
    </aside>
  );
}

/** A bet's potential return: what the bet view says it pays, or stake × total odds (exact). */
function potentialReturn(b: BetView): string {
  if (b.payout !== null) return b.payout;
  try {
    const x = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 12 });
    return format(mul(x(b.stake), x(b.total_odds)), 6);
  } catch {
    return b.stake;
  }
}

/** The receipt of a placement: each bet accepted with what it is on, or the one reason it was declined. */
function Result({ store }: { store: FrameStore }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const r = s.result;
  if (!r) return null;
  if ('error' in r)
    return (
      <div class="msg no" data-testid="result" data-result="error">
        {tr('result.error', { message: r.error })}
      </div>
    );
  return (
    <div data-testid="result">
      {r.bets.map((b) => {
        const cur = b.currency;
        if (b.status === 1)
          return (
            <section
              class="receipt"
              data-result="accepted"
              data-testid="receipt"
              key={b.id}
              aria-label={tr('receipt.title')}
            >
              <h3>✓ {tr('receipt.title')}</h3>
              <dl class="figs">
                <dt>{tr('receipt.id')}</dt>
                <dd data-testid="receipt-id" class="id">
                  {b.id}
                </dd>
              </dl>
              <ul class="legs">
                {b.selections.map((x) => {
                  const n = betSelectionNames(s.locale, x, s.events);
                  return (
                    <li
                      key={`${x.sport_event_id}/${x.market_id}/${x.odd_id}`}
                      data-testid="receipt-selection"
                    >
                      <span>
                        {n.event}
                        <br />
                        <span class="muted">
                          {n.market}: {n.outcome}
                        </span>
                      </span>
                      <b>
                        <span class="sr">{tr('receipt.odds')} </span>
                        {shown(x.odds, s.oddsFormat)}
                      </b>
                    </li>
                  );
                })}
                {placedBuilders(b).map((x, i) => (
                  <li key={`b${i}`} data-testid="receipt-builder">
                    <span>
                      {tr('builder.title')}
                      <br />
                      <span class="muted">
                        {x.legs
                          .map((l) => {
                            const n = betSelectionNames(s.locale, l, s.events);
                            return `${n.market}: ${n.outcome}`;
                          })
                          .join(' · ')}
                      </span>
                    </span>
                    <b>
                      <span class="sr">{tr('receipt.odds')} </span>
                      {shown(x.odds, s.oddsFormat)}
                    </b>
                  </li>
                ))}
              </ul>
              <dl class="figs">
                <dt>{tr(`slip.${b.bet_type}` as MessageKey)}</dt>
                <dd>{b.bet_type === 'system' ? `${b.system_sizes.join(',')}/${b.selections.length}` : ''}</dd>
                <dt>{tr('receipt.stake')}</dt>
                <dd data-testid="receipt-stake">
                  {money(b.stake, cur)} {cur}
                </dd>
                <dt>{tr('receipt.return')}</dt>
                <dd data-testid="receipt-return">
                  {money(potentialReturn(b), cur)} {cur}
                </dd>
              </dl>
            </section>
          );
        const cause = rootCause(b.restrictions);
        const max = cause?.type === 'max_bet' ? String(cause.context.max_bet ?? '') : '';
        const min = cause?.type === 'min_bet' ? String(cause.context.min_bet ?? '') : '';
        const figure = max || min;
        return (
          <section
            class="msg no receipt"
            data-result="declined"
            key={b.id}
            aria-label={tr('receipt.declined')}
          >
            <h3>{tr('receipt.declined')}</h3>
            <p data-testid="reason">
              {figure
                ? tr(max ? 'receipt.maxStake' : 'receipt.minStake', {
                    amount: money(figure, cur),
                    currency: cur,
                  })
                : cause
                  ? reasonText(s.locale, cause)
                  : tr('result.declined')}
            </p>
            {figure && !sameAmount(figure, '0') && (
              <button
                type="button"
                class="place"
                data-testid="use-stake"
                onClick={() => store.setSlip({ stake: money(figure, cur) })}
              >
                {tr('receipt.useStake', { amount: money(figure, cur), currency: cur })}
              </button>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** A settled bet's result in words, and the class that colours it. */
function outcomeOf(b: BetView): { key: MessageKey; cls: string } {
  if (b.status === 2 || b.status === 10 || b.status === 11)
    return { key: 'outcome.declined', cls: 'declined' };
  if (b.status === 7) return { key: 'outcome.cashedOut', cls: 'cashed' };
  if (b.status === 5 || b.status === 6 || b.settle_type === 2)
    return { key: 'outcome.refunded', cls: 'refunded' };
  if (b.settle_type === 1) return { key: 'outcome.won', cls: 'won' };
  if (b.settle_type === 3) return { key: 'outcome.lost', cls: 'lost' };
  return { key: 'outcome.open', cls: 'open' };
}

const DAY_MS = 86_400_000;

function History({ store }: { store: FrameStore }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const f = s.historyFilter;
  const setFilter = (p: Partial<HistoryFilter>) => store.set({ historyFilter: { ...f, ...p } });
  const since = f.days === 0 ? 0 : Date.now() - f.days * DAY_MS;
  const inPeriod = (b: BetView) => f.days === 0 || Date.parse(b.created_at) >= since;
  const declined = (b: BetView) => b.status === 2 || b.status === 10 || b.status === 11;
  const done = s.history.filter((b) => !isOpen(b) && inPeriod(b));
  const shownDone = done.filter((b) =>
    f.show === 'declined' ? declined(b) : f.show === 'settled' ? !declined(b) : f.show === 'all',
  );
  return (
    <div data-testid="history">
      <div class="bar filters">
        <fieldset class="chips plain">
          <legend class="sr">{tr('history.filter')}</legend>
          {(['all', 'open', 'settled', 'declined'] as const).map((k) => (
            <button
              type="button"
              class="chip"
              key={k}
              aria-pressed={f.show === k}
              data-testid={`filter-${k}`}
              onClick={() => setFilter({ show: k })}
            >
              {tr(`history.filter.${k}`)}
            </button>
          ))}
        </fieldset>
        <span class="grow" />
        <label for="bk-period" class="muted">
          {tr('history.period')}
        </label>
        <select
          id="bk-period"
          data-testid="period"
          value={String(f.days)}
          onChange={(e) =>
            setFilter({ days: Number((e.target as HTMLSelectElement).value) as HistoryFilter['days'] })
          }
        >
          {([0, 1, 7, 30] as const).map((d) => (
            <option value={d} key={d}>
              {tr(`history.days.${d}`)}
            </option>
          ))}
        </select>
      </div>
      {s.history.length === 0 && <p class="muted">{tr('history.empty')}</p>}
      {(f.show === 'all' || f.show === 'open') && <OpenBets store={store} />}
      {f.show !== 'open' && shownDone.length > 0 && <h2 class="sh">{tr('mybets.settled')}</h2>}
      {f.show !== 'open' && s.history.length > 0 && shownDone.length === 0 && (
        <p class="muted">{tr('history.none')}</p>
      )}
      {f.show !== 'open' &&
        shownDone.map((b: BetView) => {
          const o = outcomeOf(b);
          const cur = b.currency;
          return (
            <div
              class={`card hist ${o.cls}`}
              data-testid="history-bet"
              data-bet-id={b.id}
              data-status={b.status}
              data-outcome={o.cls}
              key={b.id}
            >
              <div class="row">
                <b class="bt">
                  {tr(`slip.${b.bet_type}` as MessageKey)}
                  {b.bet_type === 'system' ? ` ${b.system_sizes.join(',')}/${b.selections.length}` : ''}
                </b>
                <span class={`badge ${o.cls}`} data-testid="outcome">
                  {tr(o.key)}
                </span>
              </div>
              <div class="hb">
                {b.selections.map((x) => {
                  const n = betSelectionNames(s.locale, x, s.events);
                  return [
                    <span key={`${x.odd_id}n`} data-testid="history-selection">
                      {n.event}
                      <br />
                      <span class="muted">
                        {n.market}: {n.outcome}
                      </span>
                    </span>,
                    <span key={`${x.odd_id}v`}>{shown(x.odds, s.oddsFormat)}</span>,
                  ];
                })}
                <BetBuilderCells store={store} bet={b} />
                <span class="muted">{tr('history.stake')}</span>
                <span>
                  {money(b.stake, cur)} {cur}
                </span>
                {b.cashed_out_refund &&
                  !sameAmount(b.cashed_out_refund, '0') && [
                    <span class="muted" key="cl">
                      {tr('history.cashedOut')}
                    </span>,
                    <span data-testid="cashed-out-amount" data-amount={b.cashed_out_refund} key="cv">
                      {money(b.cashed_out_refund, cur)} {cur}
                    </span>,
                  ]}
                {b.settle_amount !== null && [
                  <span class="muted" key="sl">
                    {tr('history.returned')}
                  </span>,
                  <span data-testid="settled-amount" key="sv">
                    {money(b.settle_amount, cur)} {cur}
                  </span>,
                ]}
                {declined(b) &&
                  b.restrictions.length > 0 && [
                    <span class="muted" key="rl">
                      {tr('outcome.declined')}
                    </span>,
                    <span key="rv">{reasonText(s.locale, rootCause(b.restrictions)!)}</span>,
                  ]}
              </div>
            </div>
          );
        })}
    </div>
  );
}
