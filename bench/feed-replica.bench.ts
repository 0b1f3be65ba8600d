/**
 * Entries/s applied by one FeedReplica (target ≥ 250,000): /log bytes in 64 KiB chunks through the line
 * framing and `applyLine`, on 1,000 events × 10 markets. Baseline in the same run: JSON.parse of the same lines alone.
 */

import type { SportEvent } from '../packages/contracts/src/index.js';
import { FeedReplica, LineSplitter } from '../packages/sdk/src/index.js';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import type { BenchResult } from './types.js';

function snapshot(i: number): SportEvent {
  const body = sampleEvent({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, markets: 10 });
  const markets: SportEvent['markets'] = {};
  for (const m of body.markets ?? []) {
    markets[m.id] = {
      id: m.id,
      status: 0,
      type_id: m.type_id,
      template: m.template ?? '',
      specifiers: {},
      odds: Object.fromEntries(
        m.odds.map((o) => [
          o.id,
          { id: o.id, value: '1.500000000000', status: 0, template: '', is_active: true },
        ]),
      ),
    };
  }
  return {
    id: body.id!,
    meta: {},
    fixture: {
      ...body.fixture,
      id: body.id!,
      meta: {},
      status: 0,
      streams: {},
      updated_at: '2030-01-01T00:00:00.000Z',
      live_coverage: true,
    },
    markets,
    bet_stop: false,
    updated_at: '2030-01-01T00:00:00.000Z',
  } as SportEvent;
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const n = Number(args[0] ?? 500_000);
  const events = Array.from({ length: 1000 }, (_, i) => snapshot(i));
  const lines: string[] = [];
  for (let v = 1; v <= n; v++) {
    const e = events[v % 1000]!;
    const m = 1 + (v % 10);
    const changes =
      v % 5 === 0
        ? { [`markets/${m}/status`]: v % 2, updated_at: '2030-01-01T00:00:01.000Z' }
        : {
            [`markets/${m}/odds/${1 + (v % 3)}/value`]: `${1 + (v % 90)}.${String(v % 1000).padStart(3, '0')}000000000`,
            updated_at: '2030-01-01T00:00:01.000Z',
          };
    lines.push(
      `{"v":"${v}","sport_event_id":"${e.id}","type":"match_update","timestamp":1893456000,"changes":${JSON.stringify(changes)}}`,
    );
  }
  const bytes = Buffer.from(`${lines.join('\n')}\n`);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));

  const parseOnly = () => {
    const t0 = performance.now();
    for (const l of lines) JSON.parse(l);
    return n / ((performance.now() - t0) / 1000);
  };
  const applyAll = () => {
    const replica = new FeedReplica();
    replica.reset(structuredClone(events), 0n);
    const splitter = new LineSplitter((l) => replica.applyLine(l));
    const t0 = performance.now();
    for (const c of chunks) splitter.push(c);
    const rate = n / ((performance.now() - t0) / 1000);
    if (replica.version !== BigInt(n)) throw new Error(`applied up to ${replica.version}, expected ${n}`);
    return rate;
  };
  parseOnly();
  applyAll();
  const parse = Math.max(parseOnly(), parseOnly());
  const apply = Math.max(applyAll(), applyAll(), applyAll());
  return [
    {
      name: 'replica_apply',
      metrics: {
        entries_per_s: Math.round(apply),
        target_entries_per_s: 250_000,
        json_parse_only_entries_per_s: Math.round(parse),
        ratio_to_json_parse: apply / parse,
        avg_line_bytes: Math.round(bytes.length / n),
      },
      note: `${n} match_update lines in 64 KiB chunks (framing + parse + apply), 1000 events × 10 markets; best of 3`,
    },
  ];
}
