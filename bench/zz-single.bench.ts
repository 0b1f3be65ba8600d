import { FOOTBALL_MARKET as F } from '@bookie/core';
import { builderCalibration, calibrationMatchOf, formatBuilderCalibration, readFootballData } from '@bookie/simulator';
export default async function run(args: string[]) {
  const all = [];
  for (const f of args) all.push(...(await readFootballData(f, { strict: false })).matches.map(calibrationMatchOf).filter((m) => m !== undefined));
  const c = builderCalibration(all, [
    { name: 'over 2.5', legs: [{ type: F.TOTAL, specifiers: { total: '2.5' }, odd: 'over' }] },
    { name: 'btts', legs: [{ type: F.BOTH_TEAMS_TO_SCORE, odd: 'yes' }] },
    { name: 'home', legs: [{ type: F.ONE_X_TWO, odd: 'home' }] },
    { name: 'draw', legs: [{ type: F.ONE_X_TWO, odd: 'draw' }] },
  ]);
  process.stdout.write(formatBuilderCalibration(c).join('\n') + '\n');
  return [];
}
