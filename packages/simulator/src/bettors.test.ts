import type { SportEvent } from '@bookie/contracts';
import { parseStake } from '@bookie/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Bettor,
  chooseSelections,
  isOpenOdd,
  makePopulation,
  type PlannedBet,
  planBets,
} from './bettors.js';
import { readFootballData } from './football-data.js';
import { Rng } from './prng.js';
import { buildSeasonScript, DEFAULT_TIMELINE, type SeasonScript } from './season-script.js';
import { dataFile } from './testing.js';

let script: SeasonScript;
let population: Bettor[];
let plan: PlannedBet[];

beforeAll(async () => {
  script = buildSeasonScript([await readFootballData(dataFile('E0_2324.csv'))]);
  population = makePopulation('7', 200);
  plan = planBets(script, { seed: '7', bets: 6000, population, minStake: 1, maxStake: 2500 });
});

describe('makePopulation', () => {
  it('is deterministic, and a player depends only on the seed and its index', () => {
    expect(makePopulation('7', 200)).toEqual(population);
    expect(makePopulation('7', 10)).toEqual(population.slice(0, 10));
    expect(makePopulation('8', 200)).not.toEqual(population);
  });

  it('mixes the four profiles, with valid deposits', () => {
    const kinds = new Set(population.map((b) => b.kind));
    expect([...kinds].sort()).toEqual(['casual', 'high_roller', 'punter', 'sharp']);
    const casual = population.filter((b) => b.kind === 'casual').length;
    expect(casual).toBeGreaterThan(80);
    expect(casual).toBeLessThan(140);
    for (const b of population) {
      expect(b.id).toMatch(/^bettor-\d{3}$/);
      expect(() => parseStake(b.deposit)).not.toThrow();
    }
    expect(new Set(population.map((b) => b.id)).size).toBe(200);
  });
});

describe('planBets', () => {
  it('is deterministic in the seed', () => {
    expect(planBets(script, { seed: '7', bets: 6000, population, minStake: 1, maxStake: 2500 })).toEqual(
      plan,
    );
    expect(planBets(script, { seed: '9', bets: 6000, population, minStake: 1, maxStake: 2500 })).not.toEqual(
      plan,
    );
  });

  it('spreads the bets over every match, each leg open when the bet is made', () => {
    expect(plan).toHaveLength(6000);
    const open = new Map(script.steps.filter((s) => s.step === 'open').map((s) => [s.match, s.at] as const));
    const anchors = new Set(plan.map((b) => b.legs[0]));
    expect(anchors.size).toBe(380);
    for (const b of plan) {
      expect(new Set(b.legs).size).toBe(b.legs.length);
      for (const m of b.legs) {
        const ko = script.matches[m]!.row.kickOffMs;
        expect(b.at).toBeGreaterThan(open.get(m)!);
        expect(b.at).toBeLessThan(ko);
        if (b.lookAt !== undefined) expect(b.lookAt).toBeGreaterThan(open.get(m)!);
      }
      expect(b.key).toBe(`replay-7-${b.index}`);
      expect(b.player).toBeLessThan(200);
      expect(() => parseStake(b.stake)).not.toThrow();
    }
  });

  it('makes singles, expresses and systems of valid shapes', () => {
    const by = { single: 0, express: 0, system: 0 };
    for (const b of plan) {
      by[b.type]++;
      if (b.type === 'single') expect(b.legs).toHaveLength(1);
      if (b.type === 'express') expect(b.legs.length).toBeGreaterThanOrEqual(2);
      if (b.type === 'system') {
        expect(b.legs.length).toBeGreaterThanOrEqual(3);
        expect(b.systemSizes!.length).toBeGreaterThan(0);
        for (const k of b.systemSizes!) expect(k >= 2 && k <= b.legs.length).toBe(true);
        expect(new Set(b.systemSizes).size).toBe(b.systemSizes!.length);
      } else expect(b.systemSizes).toBeUndefined();
    }
    expect(by.single).toBeGreaterThan(2500);
    expect(by.express).toBeGreaterThan(1200);
    expect(by.system).toBeGreaterThan(400);
  });

  it('plans late bets across the closing odds update, and stakes across the limits', () => {
    const late = plan.filter((b) => b.lookAt !== undefined);
    expect(late.length).toBeGreaterThan(100);
    const closing = new Map(
      script.steps.filter((s) => s.step === 'closing_odds').map((s) => [s.match, s.at] as const),
    );
    for (const b of late) {
      expect(b.type).toBe('single');
      expect(b.intent).toBe('late');
      const c = closing.get(b.legs[0]!)!;
      expect(c).toBeDefined();
      expect(b.lookAt!).toBeLessThan(c);
      expect(b.at).toBeGreaterThan(c);
      expect(b.at).toBeLessThan(script.matches[b.legs[0]!]!.row.kickOffMs + DEFAULT_TIMELINE.kickOff);
    }
    expect(plan.filter((b) => b.intent === 'under_min_stake').every((b) => Number(b.stake) < 1)).toBe(true);
    expect(plan.filter((b) => b.intent === 'under_min_stake').length).toBeGreaterThan(20);
    expect(plan.filter((b) => b.intent === 'big_stake').every((b) => Number(b.stake) > 2500)).toBe(true);
    expect(plan.filter((b) => b.intent === 'big_stake').length).toBeGreaterThan(5);
    for (const s of new Set(plan.map((b) => b.strategy))) expect([1, 2, 3]).toContain(s);
  });

  it('plans nothing for no bets or no matches', () => {
    expect(planBets(script, { seed: '1', bets: 0, population })).toEqual([]);
    expect(planBets({ matches: [], steps: [] }, { seed: '1', bets: 10, population })).toEqual([]);
  });
});

describe('chooseSelections', () => {
  const event = (over: Partial<SportEvent> = {}): SportEvent => {
    const open = script.steps.find((s) => s.step === 'open' && s.match === 0)!;
    const body = open.command.body as {
      id: string;
      fixture: SportEvent['fixture'];
      markets: {
        id: string;
        type_id: number;
        status: number;
        template: string;
        specifiers: Record<string, string>;
        odds: SportEvent['markets'][string]['odds'][string][];
      }[];
    };
    return {
      id: body.id,
      meta: {},
      fixture: body.fixture,
      markets: Object.fromEntries(
        body.markets.map((m) => [m.id, { ...m, odds: Object.fromEntries(m.odds.map((o) => [o.id, o])) }]),
      ) as SportEvent['markets'],
      bet_stop: false,
      updated_at: '2023-08-09T19:00:00.000Z',
      ...over,
    };
  };

  it('picks an open outcome of an offered market at the odds shown, deterministically', () => {
    const e = event();
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const [s] = chooseSelections(new Rng(`c/${i}`), population[0]!, [e])!;
      expect(s!.sport_event_id).toBe(e.id);
      expect(isOpenOdd(e, s!.market_id, s!.odd_id)).toBe(true);
      expect(s!.odds).toBe(e.markets[s!.market_id]!.odds[s!.odd_id]!.value);
      seen.add(`${s!.market_id}/${s!.odd_id}`);
    }
    expect(seen.size).toBe(7); // 1X2 (3), total (2), Asian handicap (2)
    expect(chooseSelections(new Rng('x'), population[0]!, [e])).toEqual(
      chooseSelections(new Rng('x'), population[0]!, [e]),
    );
  });

  it("a sharp player backs an outcome whose price will shorten; others don't look ahead", () => {
    const e = event();
    // in every market, only outcome "away"/"under"/second one shortens by the close
    const shortens = new Set(Object.values(e.markets).map((m) => `${m.id}/${Object.keys(m.odds).at(-1)}`));
    const closing = (_e: string, m: string, o: string) => {
      const now = Number(e.markets[m]!.odds[o]!.value);
      return shortens.has(`${m}/${o}`) ? (now * 0.9).toFixed(3) : (now * 1.1).toFixed(3);
    };
    const sharp = { ...population[0]!, kind: 'sharp' as const };
    const casual = { ...population[0]!, kind: 'casual' as const };
    const pick = (b: typeof sharp | typeof casual, i: number) => {
      const [s] = chooseSelections(new Rng(`s/${i}`), b, [e], closing)!;
      return `${s!.market_id}/${s!.odd_id}`;
    };
    for (let i = 0; i < 100; i++) expect(shortens.has(pick(sharp, i))).toBe(true);
    expect(Array.from({ length: 100 }, (_, i) => pick(casual, i)).some((k) => !shortens.has(k))).toBe(true);
  });

  it('skips closed odds, and gives up when an event shows nothing open', () => {
    const e = event();
    const ah = Object.values(e.markets).find((m) => m.type_id === 16)!;
    e.markets[ah.id] = { ...ah, status: 1 };
    const x = Object.values(e.markets).find((m) => m.type_id === 1)!;
    x.odds.draw = { ...x.odds.draw!, is_active: false };
    for (let i = 0; i < 100; i++) {
      const [s] = chooseSelections(new Rng(`d/${i}`), population[1]!, [e])!;
      expect(s!.market_id).not.toBe(ah.id);
      expect(s!.odd_id === 'draw' && s!.market_id === x.id).toBe(false);
    }
    expect(chooseSelections(new Rng('y'), population[0]!, [event({ bet_stop: true })])).toBeUndefined();
  });
});
