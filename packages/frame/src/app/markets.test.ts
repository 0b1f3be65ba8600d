import { fileURLToPath } from 'node:url';
import type { SportEvent } from '@bookie/contracts';
import { fixtureOf, openingMarkets, readFootballData, sportEventIdOf } from '@bookie/simulator';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './i18n.js';
import { eventTitle, marketKind, marketName, outcomeName, placedNames } from './markets.js';

/** The demo's season: real Premier League matches with their 1X2, total goals and Asian handicap markets. */
const SEASON = fileURLToPath(new URL('../data/E0_2324.csv', import.meta.resolve('@bookie/simulator/index')));

async function demoEvents(n: number): Promise<SportEvent[]> {
  const season = await readFootballData(SEASON);
  return season.matches.slice(0, n).map((row) => {
    const f = fixtureOf(row);
    const markets = Object.fromEntries(openingMarkets(row).map((m) => [m.id, m]));
    return {
      id: sportEventIdOf(row),
      meta: {},
      fixture: { ...f, id: sportEventIdOf(row), meta: {}, streams: {}, updated_at: f.start_time },
      markets,
      bet_stop: false,
      updated_at: f.start_time,
    } as unknown as SportEvent;
  });
}

/** English words the feed's templates are written in: none may show in another language. */
const ENGLISH = /\b(draw|over|under|total|goals|asian|match|result|1x2)\b/i;
/** A template with words of its own (not only a competitor's name and values). */
const worded = (template: string) => /[a-z]/i.test(template.replace(/\{[^}]*\}/g, ''));

describe("market and outcome names in the player's language", () => {
  it('German and Arabic frames name none of the demo markets or outcomes in English', async () => {
    const events = await demoEvents(20);
    let checked = 0;
    for (const locale of ['de', 'ar']) {
      expect(LOCALES).toContain(locale);
      for (const e of events)
        for (const m of Object.values(e.markets)) {
          const competitors = Object.values(e.fixture.competitors).map((c) => c.name);
          const strip = (s: string) => competitors.reduce((acc, c) => acc.replaceAll(c, ''), s);
          const market = marketName(locale, e, m);
          expect(strip(market), `${locale} ${m.template}`).not.toMatch(ENGLISH);
          expect(market).not.toBe(marketName('en', e, m));
          for (const o of Object.values(m.odds)) {
            const name = outcomeName(locale, e, m, o);
            expect(strip(name), `${locale} ${o.template}`).not.toMatch(ENGLISH);
            if (worded(o.template)) expect(name, o.template).not.toBe(outcomeName('en', e, m, o));
            expect(name).not.toMatch(/[{}]/);
            checked++;
          }
        }
    }
    expect(checked).toBeGreaterThan(100);
    const e = events[0]!;
    const total = Object.values(e.markets).find((m) => marketKind(m) === 'goals')!;
    expect(marketName('de', e, total)).toBe(`Tore insgesamt ${total.specifiers.total}`);
    expect(marketName('ar', e, total)).toMatch(/^مجموع الأهداف /);
  });

  it('names a market or outcome without a template by its id, never a blank button', async () => {
    const [e] = await demoEvents(1);
    const m = { ...Object.values(e!.markets)[0]!, template: '' };
    const o = { ...Object.values(m.odds)[0]!, template: '' };
    expect(marketName('en', e!, m)).toBe(`#${m.id}`);
    expect(outcomeName('de', e!, m, o)).toBe(`#${o.id}`);
    expect(eventTitle(e!)).toMatch(/ vs /);
  });

  it('names a placed selection from what it was called at placement, in the language of now', () => {
    const names = {
      event: 'Arsenal vs Chelsea',
      tournament: 'Premier League',
      sport_id: 'football',
      start_time: '2030-06-01T18:00:00Z',
      market: 'Asian handicap -0.25',
      outcome: 'Chelsea (0.25)',
      market_template: 'Asian handicap {hcp}',
      outcome_template: '{$competitor2} ({-hcp})',
      specifiers: { hcp: '-0.25' },
      competitors: { '1': 'Arsenal', '2': 'Chelsea' },
    };
    expect(placedNames('de', names)).toMatchObject({
      market: 'Asiatisches Handicap -0.25',
      outcome: 'Chelsea (0.25)',
    });
    expect(placedNames('en', names).market).toBe('Asian handicap -0.25');
    expect(placedNames('fr', { ...names, market_template: 'Corners {hcp}' }).market).toBe('Corners -0.25');
  });
});
