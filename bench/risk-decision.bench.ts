/**
 * The risk engine's one decision (`decideBet`, docs/adr/0018-risk-engine.md) alone, in-process: p50/p99 per bet
 * for singles, expresses of 3 and systems 2/4 with limits, exposure and a group (wall clock, and CPU time of
 * the process from `process.cpuUsage`, which a loaded machine's preemption does not inflate) — and, in the same run, the decision
 * without the risk engine, as the baseline (ratio). Target: p99 ≤ 2 ms.
 *
 *   npm run bench -- risk-decision [bets=20000]
 */
import {
  type BetDecisionInput,
  type DecisionSportEvent,
  decideBet,
  formatFeedOddValue,
  outcomeKey,
  parseDecimal,
  rational,
  ZERO,
} from '../packages/core/src/index.js';
import type { BenchResult } from './types.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });

function events(n: number): Map<string, DecisionSportEvent> {
  const out = new Map<string, DecisionSportEvent>();
  for (let i = 0; i < n; i++) {
    out.set(`e${i}`, {
      id: `e${i}`,
      bet_stop: false,
      fixture: { status: i % 5 === 0 ? 1 : 0 },
      markets: Object.fromEntries(
        ['1', '2', '3'].map((m) => [
          m,
          {
            status: 0,
            type_id: Number(m),
            odds: Object.fromEntries(
              ['1', '2', '3'].map((o, k) => [
                o,
                {
                  value: formatFeedOddValue(rational(BigInt(1500 + 137 * i + 1000 * k), 1000n)),
                  status: 0,
                  is_active: true,
                },
              ]),
            ),
          },
        ]),
      ),
    });
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const bets = Number(args[0] ?? 20_000);
  const ev = events(50);
  const exposure = new Map<string, ReturnType<typeof d>>();
  for (const e of ev.values()) {
    for (const m of ['1', '2', '3']) {
      for (const o of ['1', '2', '3']) {
        exposure.set(
          outcomeKey({
            phase: e.fixture.status === 1 ? 'live' : 'prematch',
            sport_event_id: e.id,
            market_id: m,
            odd_id: o,
          }),
          d(String(100 + ((e.id.length * 7919 + Number(m) * 31 + Number(o)) % 4000))),
        );
      }
    }
  }
  const inputs: BetDecisionInput[] = [];
  for (let i = 0; i < 500; i++) {
    const legs = i % 3 === 0 ? 1 : i % 3 === 1 ? 3 : 4;
    const selections = Array.from({ length: legs }, (_, k) => {
      const e = ev.get(`e${(i * 7 + k * 11) % 50}`) as DecisionSportEvent;
      const m = String(1 + ((i + k) % 3));
      const o = String(1 + ((i * 3 + k) % 3));
      return {
        sport_event_id: e.id,
        market_id: m,
        odd_id: o,
        odds: d(e.markets[m]?.odds[o]?.value as string),
      };
    });
    inputs.push({
      bet: {
        type: legs === 1 ? 'single' : legs === 3 ? 'express' : 'system',
        systemSizes: legs === 4 ? [2] : [],
        stake: d(String(1 + (i % 200))),
        currency: 'EUR',
        oddsStrategy: 1,
        selections,
      },
      event: (id) => ev.get(id),
      whiteLabel: { minStake: d('0.1'), maxStake: d('5000'), maxPayout: d('100000'), betIntervalS: 0 },
      now: 0,
      lastBetAt: new Map(),
      expressCap: d('50000'),
      oddsTolerance: ZERO,
      risk: {
        exposure,
        liabilityLimit: (_mt, phase) => (phase === 'live' ? d('2000') : d('5000')),
        group: { name: 'default', stakeFactor: d('1') },
        eurRate: d('1'),
      },
    });
  }
  const measure = (withRisk: boolean) => {
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < bets; i++) {
      const base = inputs[i % inputs.length] as BetDecisionInput;
      const input = withRisk ? base : { ...base, risk: undefined };
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      decideBet(input);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    return {
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      mean: times.reduce((a, b) => a + b, 0) / times.length,
      cpuP50: percentile(cpu, 0.5),
      cpuP99: percentile(cpu, 0.99),
    };
  };
  measure(true); // warm-up
  measure(false);
  const off = measure(false);
  const on = measure(true);
  return [
    {
      name: 'decision',
      metrics: {
        p50_ms: on.p50,
        p99_ms: on.p99,
        mean_ms: on.mean,
        cpu_p50_ms: on.cpuP50,
        cpu_p99_ms: on.cpuP99,
        without_risk_p50_ms: off.p50,
        without_risk_p99_ms: off.p99,
        without_risk_cpu_p99_ms: off.cpuP99,
        ratio_p99_to_without_risk: on.p99 / off.p99,
      },
      note: `${bets} decisions in-process (singles, expresses of 3, systems 2/4; limits, exposure, group); baseline: the same decision without the risk engine`,
    },
  ];
}
