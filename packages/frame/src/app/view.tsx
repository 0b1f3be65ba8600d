import { ODDS_FORMATS } from '@bookie/core/odds-format';
import { useEffect, useState } from 'preact/hooks';
import { Book, EventPage } from './book.js';
import { dirOf, type MessageKey, t } from './i18n.js';
import { money } from './money.js';
import { History } from './my-bets.js';
import { oddsFormatOf } from './odds.js';
import { QuickConfirm } from './quick-bet.js';
import { Slip } from './slip.js';
import type { FrameStore } from './store.js';
import { CSS, paletteVars } from './styles.js';

function useStore(store: FrameStore) {
  const [, setTick] = useState(0);
  useEffect(() => store.onChange(() => setTick((n) => n + 1)), [store]);
  return store.state;
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
