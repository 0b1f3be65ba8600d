import { displayOdds } from '@bookie/core/odds-format';
import { type MessageKey, t } from './i18n.js';
import { eventTitle, marketName, outcomeName } from './markets.js';
import { money } from './money.js';
import { priceText, shown } from './odds.js';
import { Result } from './receipt.js';
import { slipFigures } from './slip-math.js';
import type { FrameStore, SlipSelection } from './store.js';

/** The names of a selection in the slip, in the player's language. */
export function slipNames(
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

const PRESETS = ['5', '10', '25', '50'];

/** The bet slip: its selections, bet type, stake, odds-change strategy, bonus, figures and the place button. */
export function Slip({ store }: { store: FrameStore }) {
  const s = store.state;
  const { slip } = s;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const cur = s.currency;
  const n = slip.selections.length;
  const events = new Set(slip.selections.map((x) => x.sportEventId)).size;
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
    slip.selections.map((x) => x.odds),
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
            onClick={() => store.setSlip({ selections: [], bonusId: '' })}
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
