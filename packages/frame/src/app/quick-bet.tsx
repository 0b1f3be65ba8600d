import { useEffect, useRef } from 'preact/hooks';
import { type MessageKey, t } from './i18n.js';
import { money } from './money.js';
import { shown } from './odds.js';
import { slipNames } from './slip.js';
import type { FrameStore, SlipSelection } from './store.js';

/** Quick bet: a tap on a price asks once, then places the quick stake on it. */
export function QuickConfirm({ store, sel }: { store: FrameStore; sel: SlipSelection }) {
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
