import { beforeAll, describe, expect, it } from 'vitest';
import { readFootballData } from './football-data.js';
import { drawGoals, type InPlayPlan, planInPlay, playMinutes } from './in-play.js';
import { Rng } from './prng.js';
import { buildSeasonScript, type SeasonScript, type TradingCommand } from './season-script.js';
import { dataFile } from './testing.js';

let script: SeasonScript;
beforeAll(async () => {
  script = buildSeasonScript([await readFootballData(dataFile('E0_2324.csv'))]);
});

const kinds = (cs: readonly TradingCommand[]) =>
  cs.map((c) => (c.kind === 'set_bet_stop' ? `bet_stop:${c.body.bet_stop}` : c.kind));

describe('goal minutes', () => {
  it('fall in the right half for every match of a season, in the real numbers, at distinct minutes', () => {
    for (const [i, m] of script.matches.entries()) {
      const { goals, stoppage } = drawGoals(m.row, new Rng(`goals/${i}`));
      const ht = m.row.halfTime!;
      const ft = m.row.fullTime;
      const count = (half: 1 | 2, side: 'home' | 'away') =>
        goals.filter((g) => g.half === half && g.side === side).length;
      expect([count(1, 'home'), count(1, 'away')]).toEqual([ht.home, ht.away]);
      expect([count(2, 'home'), count(2, 'away')]).toEqual([ft.home - ht.home, ft.away - ht.away]);
      for (const g of goals) {
        if (g.half === 1) expect(g.clock).toBeGreaterThanOrEqual(1);
        if (g.half === 1) expect(g.clock).toBeLessThanOrEqual(45 + stoppage.first);
        if (g.half === 2) expect(g.clock).toBeGreaterThanOrEqual(46);
        if (g.half === 2) expect(g.clock).toBeLessThanOrEqual(90 + stoppage.second);
      }
      const clocks = goals.map((g) => `${g.half}/${g.clock}`);
      expect(new Set(clocks).size).toBe(clocks.length);
      // in time order
      expect([...goals].sort((a, b) => a.half - b.half || a.clock - b.clock)).toEqual(goals);
    }
  });

  it('are the same for the same seed and differ for another', () => {
    const row = script.matches[3]!.row; // Brighton 4-1 Luton
    expect(drawGoals(row, new Rng('a'))).toEqual(drawGoals(row, new Rng('a')));
    expect(drawGoals(row, new Rng('a'))).not.toEqual(drawGoals(row, new Rng('b')));
  });

  it('without a half-time score still add up to the full-time one', () => {
    const { goals } = drawGoals({ fullTime: { home: 3, away: 2 } }, new Rng('x'));
    expect(goals.filter((g) => g.side === 'home')).toHaveLength(3);
    expect(goals.filter((g) => g.side === 'away')).toHaveLength(2);
  });

  it('are played over minutes with a half-time break between the halves', () => {
    const ms = playMinutes(0, { first: 2, second: 4 });
    expect(ms).toHaveLength(47 + 49);
    expect(ms[46]).toMatchObject({ half: 1, clock: 47, label: "45+2'", remaining: 0.5, at: 47 * 60_000 });
    expect(ms[47]).toMatchObject({ half: 2, clock: 46, label: "46'", at: (47 + 15 + 1) * 60_000 });
    expect(ms.at(-1)).toMatchObject({ clock: 94, label: "90+4'", remaining: 0 });
  });
});

describe('the in-play plan of a match', () => {
  let plan: InPlayPlan;
  beforeAll(() => {
    plan = planInPlay(script.matches[3]!, 3, { seed: '1', players: 10 })!;
  });

  it('opens at kick-off with the pre-match over/under prices back, the Asian handicap suspended', () => {
    const [open, stop] = plan.steps[0]!.commands;
    expect(kinds(plan.steps[0]!.commands)).toEqual(['patch_markets', 'bet_stop:false']);
    expect(stop).toBeDefined();
    const markets = (open as Extract<TradingCommand, { kind: 'patch_markets' }>).body.markets;
    // the total mean is solved from the over price, with the book's margin kept: 1 / (p × overround) = the price
    expect(markets.find((m) => m.id === '18:total=2.5')?.odds).toEqual([
      { id: 'over', value: '1.530000000000' },
      { id: 'under', value: '2.500000000000' },
    ]);
    const x12 = markets.find((m) => m.id === '1')!.odds!;
    // bet365's closing 1.25 / 6.5 / 11.0: the model's home and away stay within a few cents, the draw is its own
    expect(Number(x12[0]!.value)).toBeCloseTo(1.25, 1);
    expect(Math.abs(Number(x12[2]!.value) - 11) / 11).toBeLessThan(0.1);
    expect(markets.find((m) => m.id.startsWith('16:'))).toEqual({ id: '16:hcp=-1.5', status: 1 });
  });

  it('stops bets at each goal, sends the score, and reopens with new prices a minute later', () => {
    const goalSteps = plan.steps.filter((s) => s.goal);
    expect(goalSteps).toHaveLength(5); // 4-1, at distinct minutes
    expect(goalSteps.at(-1)!.goal!.score).toEqual({ home: 4, away: 1 });
    for (const g of goalSteps) {
      expect(kinds(g.commands).slice(0, 2)).toEqual(['bet_stop:true', 'update_scores']);
      const next = plan.steps[plan.steps.indexOf(g) + 1]!;
      if (!next.goal) expect(kinds(next.commands)).toContain('bet_stop:false');
    }
    // the third goal wins the over: the total market is suspended with the prices that follow it
    const third = goalSteps.find((s) => s.goal!.score.home + s.goal!.score.away === 3)!;
    const after = plan.steps[plan.steps.indexOf(third) + 1]!;
    const patch = after.commands.find((c) => c.kind === 'patch_markets') as Extract<
      TradingCommand,
      { kind: 'patch_markets' }
    >;
    expect(patch.body.markets).toContainEqual({ id: '18:total=2.5', status: 1 });
    // the half-time score goes out at the end of the first half, and the final whistle stops everything
    const ht = plan.steps.find((s) =>
      s.commands.some(
        (c) => c.kind === 'update_scores' && 'period:1' in Object.values(c.body.competitors)[0]!,
      ),
    );
    expect(plan.minutes[ht!.minute]!.half).toBe(1);
    expect(plan.minutes[ht!.minute + 1]!.half).toBe(2);
    expect(kinds(plan.steps.at(-1)!.commands)).toEqual(['bet_stop:true']);
  });

  it('plans live bets: the first one the minute before a goal, others moving or not, some cashed out', () => {
    const first = plan.bets[0]!;
    expect(first.during).toBe('goal');
    expect(plan.steps[first.minute + 2]!.goal).toBeDefined(); // steps[0] is kick-off: minute i is steps[i + 1]
    const all = script.matches
      .slice(0, 40)
      .flatMap((m, i) => planInPlay(m, i, { seed: '1', players: 10 })!.bets);
    expect(new Set(all.map((b) => b.during))).toEqual(new Set(['goal', 'odds', 'none']));
    expect(new Set(all.flatMap((b) => (b.cashOut ? [`${b.cashOut.kind}/${b.cashOut.via}`] : [])))).toEqual(
      new Set(['full/frame', 'full/partner', 'partial/frame', 'partial/partner']),
    );
    for (const b of all) if (b.cashOut) expect(b.cashOut.minute).toBeGreaterThan(b.minute + 1);
    // nobody bets on a total the over has already won
    for (const [i, m] of script.matches.slice(0, 40).entries()) {
      const p = planInPlay(m, i, { seed: '1', players: 10 })!;
      const won = p.steps.find((s) => s.goal && s.goal.score.home + s.goal.score.away > 2.5);
      for (const b of p.bets) if (won && b.minute >= won.minute) expect(b.market).toBe('1x2');
    }
    expect(planInPlay(script.matches[3]!, 3, { seed: '1', players: 10 })).toEqual(plan);
  });

  it('with prices every 5 minutes: quiet minutes send nothing in between, goals move them as before', () => {
    const every5 = script.matches
      .slice(0, 40)
      .map((m, i) => planInPlay(m, i, { seed: '1', players: 10, priceEveryMin: 5 })!);
    const commands = (ps: InPlayPlan[]) =>
      ps.reduce((n, p) => n + p.steps.flatMap((s) => s.commands).length, 0);
    const every1 = script.matches.slice(0, 40).map((m, i) => planInPlay(m, i, { seed: '1', players: 10 })!);
    expect(commands(every5)).toBeLessThan(commands(every1) / 2);
    let moving = 0;
    for (const [k, p] of every5.entries()) {
      // the goals and their minutes are those of the minute-by-minute plan
      expect(p.goals).toEqual(every1[k]!.goals);
      p.steps.slice(1, -1).forEach((s, i) => {
        const m = p.minutes[i]!;
        const after = i > 0 && p.steps[i]!.goal; // the minute after a goal reprices
        if (!s.goal && !after && m.clock % 5 !== 0) expect(kinds(s.commands)).not.toContain('patch_markets');
      });
      for (const b of p.bets.filter((x) => x.during === 'odds')) {
        // the new prices the bet is meant to meet go out in the next minute
        expect(p.minutes[b.minute + 1]!.clock % 5).toBe(0);
        moving++;
      }
    }
    expect(moving).toBeGreaterThan(0);
  });
});
