import type { BetView } from '@bookie/contracts';
import { parseDecimal } from '@bookie/core/decimal';
import { displayOdds, type OddsFormat } from '@bookie/core/odds-format';
import { useEffect, useRef } from 'preact/hooks';
import { BetBuilderCells } from './builder-view.js';
import { type CashOutDesk, isCashable, isOpen, neverOffered, type OrderOutcome } from './cash-out.js';
import { cashOutReasonText, type MessageKey, t } from './i18n.js';
import { betSelectionNames } from './markets.js';
import { money, partOfStake, sameAmount, stakeInPlay } from './money.js';
import type { FrameStore } from './store.js';

function odds(v: string, f: OddsFormat): string {
  try {
    return displayOdds(parseDecimal(v, { field: 'odds', maxDecimals: 12 }), f);
  } catch {
    return '—';
  }
}

/**
 * "My bets" → open bets: every bet still in play, newest first, with its cash-out. An open single or express shows
 * "Cash out <amount> <currency>" with the current quote of its whole remaining stake, kept fresh while this screen is
 * on; a partial cash-out takes part of the stake on a slider. Nothing offered: the button is disabled and the reason
 * is said in the player's language; where the operator pays no cash-out at all there is no button. A click asks to
 * confirm exactly the amount shown, then places the order with that quote. A cash-out the operator could not be
 * paid for is reversed by Bookie: the bet shows its whole stake again and says so.
 */
export function OpenBets({ store }: { store: FrameStore }) {
  const s = store.state;
  const desk = store.cashOut;
  useEffect(() => {
    desk.start();
    return () => desk.stop();
  }, [desk]);
  const open = s.history.filter(isOpen);
  const closed = desk.closedOutcomes(new Set(open.map((b) => b.id)));
  return (
    <section data-testid="open-bets" aria-labelledby="bk-open">
      <h2 class="sh" id="bk-open">
        {t(s.locale, 'mybets.open')} <span class="count">{open.length}</span>
      </h2>
      {closed.map((o) => (
        <Outcome store={store} outcome={o} currency={s.currency} key={o.betId} />
      ))}
      {open.length === 0 ? (
        <p class="muted">{t(s.locale, 'mybets.openEmpty')}</p>
      ) : (
        open.map((b) => <OpenBet store={store} bet={b} key={b.id} />)
      )}
    </section>
  );
}

function Outcome({
  store,
  outcome,
  currency,
}: {
  store: FrameStore;
  outcome: OrderOutcome & { betId: string; orderId?: string };
  currency: string;
}) {
  const s = store.state;
  const q = store.cashOut.of(outcome.betId).full;
  let text: string;
  if (outcome.kind === 'accepted')
    text = t(s.locale, 'cashout.done', { amount: money(outcome.refund, currency), currency });
  else if (outcome.kind === 'declined') {
    text = t(s.locale, 'cashout.declined', { reason: cashOutReasonText(s.locale, outcome.reason) });
    if (q?.available)
      text += ` ${t(s.locale, 'cashout.newOffer', { amount: money(q.refund_amount, currency), currency })}`;
  } else text = t(s.locale, 'cashout.error', { message: outcome.message });
  return (
    <output
      class={`msg ${outcome.kind === 'accepted' ? 'ok' : 'no'} co-msg`}
      data-testid="cash-out-result"
      data-result={outcome.kind}
      {...(outcome.kind === 'declined' ? { 'data-reason': outcome.reason } : {})}
    >
      <span
        data-testid="cash-out-result-text"
        data-amount={outcome.kind === 'accepted' ? outcome.refund : undefined}
        data-new-offer={outcome.kind === 'declined' && q?.available ? q.refund_amount : undefined}
      >
        {text}
      </span>
      <button
        type="button"
        class="x"
        aria-label={t(s.locale, 'cashout.dismiss')}
        onClick={() => store.cashOut.dismiss(outcome.betId, outcome.orderId)}
      >
        ×
      </button>
    </output>
  );
}

function OpenBet({ store, bet }: { store: FrameStore; bet: BetView }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const desk = store.cashOut;
  const co = desk.of(bet.id);
  // a bet that just appeared (placed while this screen is on) is quoted at once, not at the next poll
  useEffect(() => {
    if (desk.active && isCashable(bet) && !desk.of(bet.id).full) desk.refresh(bet.id);
  }, [desk, bet]);
  const cur = bet.currency;
  // the stake in play: the latest quote's, else the bet's own (its stake less what cash-outs took)
  const remaining = co.remaining ?? stakeInPlay(bet.stake, bet.cashed_out_stake);
  const partial = !sameAmount(remaining, bet.stake);
  const outcome = desk.outcomeOf(bet);
  return (
    <div class="card ob" data-testid="open-bet" data-bet-id={bet.id} data-bet-type={bet.bet_type}>
      <div class="row">
        <b class="bt">
          {bet.bet_type}
          {bet.bet_type === 'system' ? ` ${bet.system_sizes.join(',')}/${bet.selections.length}` : ''}
        </b>
        <span class="muted">{tr(`status.${bet.status}` as MessageKey)}</span>
      </div>
      <div class="hb">
        {bet.selections.map((x) => {
          const n = betSelectionNames(s.locale, x, s.events);
          return [
            <span key={`${x.odd_id}n`}>
              {n.event}
              <br />
              <span class="muted">
                {n.market}: {n.outcome}
              </span>
            </span>,
            <b key={`${x.odd_id}v`}>{odds(x.odds, s.oddsFormat)}</b>,
          ];
        })}
        <BetBuilderCells store={store} bet={bet} />
        <span class="muted">{tr('history.stake')}</span>
        <span data-testid="stake">
          {money(bet.stake, cur)} {cur}
        </span>
        {partial && [
          <span class="muted" key="ipl">
            {tr('mybets.inPlay')}
          </span>,
          <span data-testid="in-play" key="ipv">
            {money(remaining, cur)} {cur}
          </span>,
        ]}
        {!partial &&
          bet.payout !== null && [
            <span class="muted" key="trl">
              {tr('mybets.toReturn')}
            </span>,
            <span key="trv">
              {money(bet.payout, cur)} {cur}
            </span>,
          ]}
      </div>
      <CashOut store={store} bet={bet} remaining={remaining} />
      {outcome && <Outcome store={store} outcome={outcome} currency={cur} />}
    </div>
  );
}

function CashOut({ store, bet, remaining }: { store: FrameStore; bet: BetView; remaining: string }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const desk: CashOutDesk = store.cashOut;
  const co = desk.of(bet.id);
  const cur = bet.currency;
  const confirmRef = useRef<HTMLButtonElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // the focus goes to the confirm button, and back to the cash-out button when the confirmation closes
  useEffect(() => {
    if (co.confirming) confirmRef.current?.focus();
    else if (wasConfirming.current) buttonRef.current?.focus();
    wasConfirming.current = co.confirming !== undefined;
  }, [co.confirming]);
  const cashable = isCashable(bet);
  // the operator pays no cash-out (or the bet has selections from elsewhere): no cash-out button at all
  if (neverOffered(co.full) && !co.confirming) return null;
  const reason = !cashable
    ? 'bet_type_not_supported'
    : co.full && !co.full.available
      ? co.full.reason
      : undefined;
  const offer = co.full?.available ? co.full : undefined;
  const reasonId = `bk-cor-${bet.id}`;
  const busy = co.placing || co.confirming !== undefined || s.sessionEnded;
  const partQuote =
    co.part && co.partAmount && sameAmount(co.part.amount, co.partAmount) ? co.part : undefined;
  if (co.confirming) {
    const c = co.confirming;
    return (
      <fieldset
        class="co-confirm"
        data-testid="cash-out-confirm"
        data-expires-at={c.expiresAt}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !co.placing) desk.cancel(bet.id);
        }}
      >
        <legend data-testid="cash-out-confirm-text" data-amount={c.refund}>
          {tr('cashout.confirm', { part: money(c.amount, cur), amount: money(c.refund, cur), currency: cur })}
        </legend>
        <div class="co-row">
          <button
            type="button"
            class="co"
            ref={confirmRef}
            disabled={co.placing}
            data-testid="cash-out-yes"
            onClick={() => void desk.confirm(bet.id)}
          >
            {co.placing ? tr('cashout.placing') : tr('cashout.yes')}
          </button>
          <button
            type="button"
            class="tab"
            disabled={co.placing}
            data-testid="cash-out-no"
            onClick={() => desk.cancel(bet.id)}
          >
            {tr('cashout.no')}
          </button>
        </div>
      </fieldset>
    );
  }
  return (
    <div class="co-box">
      <div class="co-row">
        <button
          type="button"
          class="co"
          ref={buttonRef}
          data-testid="cash-out"
          data-amount={offer?.refund_amount}
          disabled={!offer || busy}
          aria-describedby={reason ? reasonId : undefined}
          onClick={() => desk.ask(bet.id, 'full')}
        >
          {offer
            ? tr('cashout.button', { amount: money(offer.refund_amount, cur), currency: cur })
            : cashable && !co.full
              ? tr('cashout.asking')
              : tr('cashout.none')}
        </button>
        {cashable && (
          <button
            type="button"
            class="tab"
            aria-expanded={co.partAmount !== undefined}
            aria-controls={`bk-cop-${bet.id}`}
            disabled={!offer || busy || partOfStake(remaining, 50) === undefined}
            data-testid="cash-out-partial"
            onClick={() => desk.choosePart(bet.id, co.partAmount === undefined ? 50 : undefined, remaining)}
          >
            {tr('cashout.partial')}
          </button>
        )}
      </div>
      {reason && (
        <p class="muted co-why" id={reasonId} data-testid="cash-out-reason" data-reason={reason}>
          {cashOutReasonText(s.locale, reason)}
        </p>
      )}
      {co.partAmount !== undefined && offer && (
        <div class="co-part" id={`bk-cop-${bet.id}`} data-testid="cash-out-part">
          <label for={`bk-cos-${bet.id}`}>{tr('cashout.partialLabel')}</label>
          <input
            id={`bk-cos-${bet.id}`}
            type="range"
            min="1"
            max="99"
            step="1"
            value={String(co.partPercent)}
            aria-valuetext={`${money(co.partAmount, cur)} ${cur}`}
            data-testid="cash-out-slider"
            onInput={(e) => desk.choosePart(bet.id, Number((e.target as HTMLInputElement).value), remaining)}
          />
          <span class="muted" data-testid="cash-out-part-amount">
            {tr('cashout.partOf', {
              part: money(co.partAmount, cur),
              remaining: money(remaining, cur),
              currency: cur,
            })}
          </span>
          <button
            type="button"
            class="co"
            data-testid="cash-out-part-button"
            data-amount={partQuote?.available ? partQuote.refund_amount : undefined}
            disabled={!partQuote?.available || busy}
            onClick={() => desk.ask(bet.id, 'part')}
          >
            {partQuote?.available
              ? tr('cashout.button', { amount: money(partQuote.refund_amount, cur), currency: cur })
              : tr('cashout.asking')}
          </button>
        </div>
      )}
    </div>
  );
}
