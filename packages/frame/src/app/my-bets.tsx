import type { BetView } from '@bookie/contracts';
import { isOpen } from './cash-out.js';
import { type MessageKey, reasonText, rootCause, t } from './i18n.js';
import { betSelectionNames } from './markets.js';
import { money, sameAmount } from './money.js';
import { shown } from './odds.js';
import { OpenBets } from './open-bets.js';
import type { FrameStore, HistoryFilter } from './store.js';

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

/** "My bets": the open bets (with cash out) and the settled and declined ones, filtered by kind and period. */
export function History({ store }: { store: FrameStore }) {
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
