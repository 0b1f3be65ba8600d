/**
 * The bet builder's score model against real results: for every match of a football-data season, the model is fitted
 * to the closing 1X2 and over/under 2.5 odds (the margin removed proportionally), and the model's probability of
 * common builder combinations is compared with how often they happened. A calibrated model has a mean probability
 * close to the hit rate (within about two standard errors, √(p(1−p)/n)). Also measured: the fit time per match.
 *
 *   npm run bench -- bet-builder [csv=packages/simulator/data/E0_2324.csv …]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BuilderEventInput,
  builderModel,
  builderProbabilities,
  type FootballOdd,
  footballOdd,
  toFloat,
} from '@bookie/core';
import { readFootballData } from '@bookie/simulator';
import type { BenchResult } from './types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function odd(type: number, specifiers: Record<string, string>, id: string): FootballOdd {
  const r = footballOdd(type, specifiers, id);
  if (!r.ok) throw new Error(r.message);
  return r.odd;
}

const TOTAL = { total: '2.5' };
const COMBOS: { name: string; legs: FootballOdd[] }[] = [
  { name: 'home_and_over_2.5', legs: [odd(1, {}, 'home'), odd(18, TOTAL, 'over')] },
  { name: 'btts_and_over_2.5', legs: [odd(29, {}, 'yes'), odd(18, TOTAL, 'over')] },
  { name: 'draw_and_under_2.5', legs: [odd(1, {}, 'draw'), odd(18, TOTAL, 'under')] },
  { name: 'away_and_btts', legs: [odd(1, {}, 'away'), odd(29, {}, 'yes')] },
  { name: 'home_and_btts_no', legs: [odd(1, {}, 'home'), odd(29, {}, 'no')] },
];

const open = (value: string) => ({ value, status: 0, is_active: true });

export default async function run(args: string[]): Promise<BenchResult[]> {
  const files = args.length > 0 ? args : [join(root, 'packages/simulator/data/E0_2324.csv')];
  const sums = COMBOS.map(() => ({ p: 0, hits: 0, n: 0 }));
  let fitted = 0;
  let refused = 0;
  let fitMs = 0;
  let worstFit = 0;
  for (const file of files) {
    const season = await readFootballData(file, { strict: false });
    for (const match of season.matches) {
      const x = match.odds.closing['1x2'];
      const t = match.odds.closing.total;
      if (!x || !t) continue;
      const event: BuilderEventInput = {
        id: `${match.date}/${match.home}/${match.away}`,
        sport_id: 'football',
        markets: {
          '1': {
            type_id: 1,
            status: 0,
            specifiers: {},
            odds: { home: open(x.home), draw: open(x.draw), away: open(x.away) },
          },
          [`18:total=${t.line}`]: {
            type_id: 18,
            status: 0,
            specifiers: { total: t.line },
            odds: { over: open(t.over), under: open(t.under) },
          },
        },
      };
      const started = performance.now();
      const model = builderModel(event);
      fitMs += performance.now() - started;
      if (!model.ok) {
        refused++;
        continue;
      }
      fitted++;
      worstFit = Math.max(worstFit, model.value.fit.maxError);
      for (const [i, combo] of COMBOS.entries()) {
        const p = toFloat(builderProbabilities(model.value.matrix, combo.legs).win);
        const hit = combo.legs.every((l) => l.result(match.fullTime) === 1);
        sums[i]!.p += p;
        sums[i]!.hits += hit ? 1 : 0;
        sums[i]!.n++;
      }
    }
  }
  const note = `${files.map((f) => f.split('/').pop()).join(', ')}: ${fitted} matches fitted, ${refused} refused`;
  return [
    {
      name: 'fit',
      metrics: {
        matches: fitted,
        refused,
        mean_fit_ms: fitMs / Math.max(1, fitted + refused),
        worst_fit_error: worstFit,
      },
      note,
    },
    ...COMBOS.map((c, i) => {
      const s = sums[i]!;
      const mean = s.p / s.n;
      const rate = s.hits / s.n;
      const se = Math.sqrt((mean * (1 - mean)) / s.n);
      return {
        name: c.name,
        metrics: { n: s.n, model_mean_p: mean, hit_rate: rate, hits: s.hits, z: (rate - mean) / se },
        note: 'z = (hit rate − mean p) / √(mean p (1 − mean p) / n)',
      };
    }),
  ];
}
