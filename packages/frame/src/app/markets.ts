import type { Market, Odd, SelectionNames, SportEvent } from '@bookie/contracts';
import { competitorsByPosition, fillTemplate } from '@bookie/core/feed-template';

/**
 * Market and outcome names in the player's language. The feed names markets and outcomes with English templates
 * (`"Total goals {total}"`, `"over {total}"`, `"{$competitor1} ({hcp})"`); each locale maps a template to its own
 * template, which is then filled like the feed's. A template a locale does not know is shown as the feed wrote it;
 * an empty one is named by its id, so no button is ever nameless.
 */
const TEMPLATES: Record<string, Record<string, string>> = {
  en: {
    '1x2': 'Match result',
    draw: 'Draw',
    'Match odds': 'Match result',
    'Total goals {total}': 'Total goals {total}',
    'over {total}': 'Over {total}',
    'under {total}': 'Under {total}',
    'Asian handicap {hcp}': 'Asian handicap {hcp}',
  },
  de: {
    '1x2': 'Spielausgang',
    draw: 'Unentschieden',
    'Match odds': 'Spielausgang',
    'Total goals {total}': 'Tore insgesamt {total}',
    'over {total}': 'Über {total}',
    'under {total}': 'Unter {total}',
    'Asian handicap {hcp}': 'Asiatisches Handicap {hcp}',
  },
  ar: {
    '1x2': 'نتيجة المباراة',
    draw: 'تعادل',
    'Match odds': 'نتيجة المباراة',
    'Total goals {total}': 'مجموع الأهداف {total}',
    'over {total}': 'أكثر من {total}',
    'under {total}': 'أقل من {total}',
    'Asian handicap {hcp}': 'الهانديكاب الآسيوي {hcp}',
  },
};

/** The template in `locale` (the feed's own when the locale has none for it). */
export function localTemplate(locale: string, template: string): string {
  const lang = locale.slice(0, 2).toLowerCase();
  return TEMPLATES[lang]?.[template] ?? TEMPLATES.en?.[template] ?? template;
}

function competitorsOf(event: SportEvent): Record<string, string> {
  return competitorsByPosition(event.fixture.competitors);
}

/** The event's name: its template filled with its competitors. */
export function eventTitle(event: SportEvent): string {
  return fillTemplate(event.fixture.template, competitorsOf(event), {}) || event.id;
}

/** A market's name in `locale`. */
export function marketName(locale: string, event: SportEvent, market: Market): string {
  const t = localTemplate(locale, market.template);
  return fillTemplate(t, competitorsOf(event), market.specifiers).trim() || `#${market.id}`;
}

/** An outcome's name in `locale`. */
export function outcomeName(locale: string, event: SportEvent, market: Market, odd: Odd): string {
  const t = localTemplate(locale, odd.template);
  return fillTemplate(t, competitorsOf(event), market.specifiers).trim() || `#${odd.id}`;
}

/** A placed selection's names in `locale`, from what it was called at placement. */
export function placedNames(
  locale: string,
  n: SelectionNames,
): { event: string; market: string; outcome: string; tournament: string } {
  return {
    event: n.event,
    tournament: n.tournament,
    market:
      fillTemplate(localTemplate(locale, n.market_template), n.competitors, n.specifiers).trim() || n.market,
    outcome:
      fillTemplate(localTemplate(locale, n.outcome_template), n.competitors, n.specifiers).trim() ||
      n.outcome,
  };
}

/** Kinds of market the event page groups by, in display order. */
export const MARKET_KINDS = ['main', 'goals', 'handicaps', 'other'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

/** A market's kind: the 1X2 is the main market, totals are goals, handicaps their own; anything else "other". */
export function marketKind(m: Market): MarketKind {
  const t = m.template.toLowerCase();
  if (m.type_id === 1 || t === '1x2' || t === 'match odds') return 'main';
  if (m.type_id === 18 || 'total' in m.specifiers || t.includes('total')) return 'goals';
  if (m.type_id === 16 || 'hcp' in m.specifiers || t.includes('handicap')) return 'handicaps';
  return 'other';
}

/** The score of a live event, home first (`total` score of each competitor), or undefined when it has none. */
export function scoreOf(event: SportEvent): [string, string] | undefined {
  const cs = Object.values(event.fixture.competitors).sort((a, b) => a.home_away - b.home_away);
  if (cs.length !== 2) return undefined;
  const p = cs.map((c) => c.scores.total?.points);
  if (p[0] === undefined || p[1] === undefined) return undefined;
  return [p[0], p[1]];
}

/**
 * The match clock or period from the fixture's meta (the feed's free-form keys `time`, `timer_running`,
 * `game_state`, `state_number`, `map`): the minute when given, else the period; undefined when the feed says neither.
 */
export function clockOf(event: SportEvent): { minute?: string; period?: string } | undefined {
  const meta = { ...event.meta, ...event.fixture.meta } as Record<string, unknown>;
  const time = meta.time ?? meta.match_time ?? meta.minute;
  const period = meta.game_state ?? meta.period ?? meta.state_number ?? meta.map;
  const out: { minute?: string; period?: string } = {};
  if (typeof time === 'number' || (typeof time === 'string' && time !== '')) {
    // seconds on the clock (a number above 200) or minutes as the feed wrote them
    const n = Number(time);
    out.minute = Number.isFinite(n) && n > 200 ? String(Math.floor(n / 60)) : String(time);
  }
  if (typeof period === 'number' || (typeof period === 'string' && period !== ''))
    out.period = String(period);
  return out.minute || out.period ? out : undefined;
}

/**
 * What a bet's selection is called, in `locale`: from the names kept at placement; for a bet placed before names
 * were kept, from the book while the event is on it; else its ids.
 */
export function betSelectionNames(
  locale: string,
  x: { sport_event_id: string; market_id: string; odd_id: string; names?: SelectionNames | null },
  events: Record<string, SportEvent>,
): { event: string; market: string; outcome: string } {
  if (x.names) return placedNames(locale, x.names);
  const e = events[x.sport_event_id];
  const m = e?.markets[x.market_id];
  const o = m?.odds[x.odd_id];
  return {
    event: e ? eventTitle(e) : x.sport_event_id,
    market: e && m ? marketName(locale, e, m) : `#${x.market_id}`,
    outcome: e && m && o ? outcomeName(locale, e, m, o) : `#${x.odd_id}`,
  };
}
