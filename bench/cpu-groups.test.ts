import { describe, expect, it } from 'vitest';
import {
  type CpuProfile,
  cpuFunctions,
  cpuGroups,
  cpuKinds,
  formatCpuGroups,
  groupOf,
} from './cpu-groups.js';

const frame = (functionName: string, url = '') => ({ functionName, url });

describe('CPU profile groups', () => {
  it('names the group of a frame: npm package, Bookie package or module, Node, GC, V8, native', () => {
    expect(groupOf(frame('f', 'file:///w/node_modules/kysely/dist/esm/x.js'))).toBe('npm:kysely');
    expect(groupOf(frame('f', 'file:///w/node_modules/@fastify/ajv/index.js'))).toBe('npm:@fastify/ajv');
    expect(groupOf(frame('f', 'file:///w/packages/server/dist/modules/mts/report-bet.js'))).toBe(
      'bookie:server/mts',
    );
    expect(groupOf(frame('f', 'file:///w/packages/server/src/http/json.ts'))).toBe('bookie:server/http');
    expect(groupOf(frame('f', 'file:///w/packages/core/src/decimal.ts'))).toBe('bookie:core/decimal');
    expect(groupOf(frame('f', 'node:internal/streams/readable'))).toBe('node:internal/streams');
    expect(groupOf(frame('emit', 'node:events'))).toBe('node:events');
    expect(groupOf(frame('(garbage collector)'))).toBe('(gc)');
    expect(groupOf(frame('(program)'))).toBe('(program)');
    expect(groupOf(frame('runMicrotasks'))).toBe('(native)');
  });

  it('sums self time until the next sample, idle left out and native writev apart', () => {
    const p: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { ...frame('(root)'), lineNumber: -1 } },
        { id: 2, callFrame: { ...frame('(idle)'), lineNumber: -1 } },
        { id: 3, callFrame: { ...frame('writev'), lineNumber: -1 } },
        { id: 4, callFrame: { ...frame('a', 'file:///w/node_modules/pg/lib/a.js'), lineNumber: 9 } },
        {
          id: 5,
          callFrame: { ...frame('b', 'file:///w/packages/server/src/modules/mts/b.ts'), lineNumber: 0 },
        },
        { id: 6, callFrame: { ...frame('(garbage collector)'), lineNumber: -1 } },
      ],
      startTime: 0,
      // samples at 0, 1000, 3000, 4000, 8000, 9000 µs; the profile ends at 10,000
      samples: [4, 2, 5, 3, 4, 6],
      timeDeltas: [0, 1000, 2000, 1000, 4000, 1000],
      endTime: 10_000,
    };
    const g = cpuGroups(p);
    expect(g.idleMs).toBe(2);
    expect(g.writevMs).toBe(4);
    expect(g.totalMs).toBe(4);
    expect(g.wallMs).toBe(10);
    expect(g.groups).toEqual([
      { key: 'npm:pg', ms: 2 },
      { key: 'bookie:server/mts', ms: 1 },
      { key: '(gc)', ms: 1 },
    ]);
    expect(cpuKinds(g)).toEqual([
      { key: 'npm', ms: 2 },
      { key: 'bookie', ms: 1 },
      { key: '(gc)', ms: 1 },
    ]);
    expect(cpuFunctions(p).groups[0]).toEqual({ key: 'a npm:pg a.js:10', ms: 2 });
    // the measured CPU (here 0.002 ms per decision over 1,000) split by share
    const lines = formatCpuGroups(g, { label: 'x', decisions: 1000, cpuMsPerDecision: 0.002 });
    expect(lines.find((l) => l.endsWith('npm:pg'))).toContain('    1.0µs/decision');
    expect(lines.find((l) => l.endsWith('(gc)'))).toContain('    0.5µs/decision');
  });
});
