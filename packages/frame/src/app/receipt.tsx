import type { BetView } from '@bookie/contracts';
import { format, mul, parseDecimal } from '@bookie/core/decimal';
import { type MessageKey, reasonText, rootCause, t } from './i18n.js';
import { betSelectionNames } from './markets.js';
import { money, sameAmount } from './money.js';
import { shown } from './odds.js';
import type { FrameStore } from './store.js';

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
export function Result({ store }: { store: FrameStore }) {
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
