/**
 * Where a process's CPU went, from a V8 CPU profile (`.cpuprofile`, as written by bench/cpu-profile.mjs or
 * `node --cpu-prof`): self time summed by group — an npm package (`npm:kysely`), a Bookie package or module
 * (`bookie:server/mts` for packages/server/src/modules/mts, `bookie:core/decimal` for packages/core/src/decimal.ts),
 * Node's own JavaScript (`node:internal/streams`), the garbage collector (`(gc)`), V8's unattributed work
 * (`(program)`: compilation, runtime) and native functions (`(native)`). Idle time is left out, and native `writev`
 * is reported apart: on a loaded machine it is mostly the process descheduled inside the system call, not CPU.
 *
 * As a command, `node --import tsx bench/cpu-groups.ts FILE [group|fn] [rows=40] [decisions] [cpuMsPerDecision]`
 * prints the groups (or the functions, with their group, file and line) of one profile; with `decisions`, µs per
 * decision too (with `cpuMsPerDecision`, the measured CPU split by share: see {@link formatCpuGroups}).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The part of a V8 CPU profile the grouping reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  /** µs, the first sample's time. */
  startTime: number;
  /** µs, when profiling stopped. */
  endTime: number;
  /** The node sampled at each tick. */
  samples: number[];
  /** µs since the previous sample (the first: since `startTime`). */
  timeDeltas: number[];
}

/** One group's (or function's) self time. */
export interface CpuShare {
  key: string;
  /** Self time, ms. */
  ms: number;
}

/** A profile's self time by group, idle and native `writev` apart. */
export interface CpuGroups {
  /** Self time of every non-idle sample but native `writev`, ms. */
  totalMs: number;
  /** Idle (the event loop waiting), ms; not in {@link totalMs}. */
  idleMs: number;
  /** Native `writev` (mostly descheduled time on a loaded machine), ms; not in {@link totalMs}. */
  writevMs: number;
  /** The profile's wall time, ms. */
  wallMs: number;
  /** What {@link groups} are: groups ({@link groupOf}) or functions. */
  by: 'group' | 'function';
  /** Groups (or functions), largest first. */
  groups: CpuShare[];
}

const IDLE = '(idle)';
const WRITEV = 'writev';

/**
 * The group of a call frame: `npm:<package>`, `bookie:<package>/<module or file>`, `node:<module>`, `(gc)`,
 * `(program)`, `(native)`, or the file's name for anything else.
 */
export function groupOf(frame: { functionName: string; url: string }): string {
  const url = frame.url;
  if (!url) {
    if (frame.functionName === '(garbage collector)') return '(gc)';
    if (frame.functionName === '(program)' || frame.functionName === '(root)') return '(program)';
    return '(native)';
  }
  const npm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (npm) return `npm:${npm[1]}`;
  const own = /packages\/([^/]+)\/(?:src|dist)\/(?:modules\/([^/]+)\/|([^/.]+))/.exec(url);
  if (own) return `bookie:${own[1]}/${own[2] ?? own[3]}`;
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/');
    return `node:${parts[0] === 'internal' && parts.length > 2 ? `internal/${parts[1]}` : parts.join('/')}`;
  }
  return url.slice(url.lastIndexOf('/') + 1);
}

/** Each sample's duration: until the next sample (the last: until the profile's end), µs. */
function sampleDurations(p: CpuProfile): number[] {
  const out: number[] = new Array(p.samples.length);
  let t = p.startTime;
  const times = p.timeDeltas.map((d) => {
    t += d;
    return t;
  });
  for (let i = 0; i < times.length; i++) {
    out[i] = Math.max(0, (times[i + 1] ?? p.endTime) - (times[i] as number));
  }
  return out;
}

/** Self time summed by `keyOf` of each sampled node's frame, idle and native `writev` apart. */
function selfTimes(
  p: CpuProfile,
  keyOf: (frame: CpuProfile['nodes'][number]['callFrame']) => string,
): Omit<CpuGroups, 'groups' | 'by'> & { shares: CpuShare[] } {
  const frames = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const durations = sampleDurations(p);
  const byKey = new Map<string, number>();
  let idle = 0;
  let writev = 0;
  let total = 0;
  p.samples.forEach((id, i) => {
    const frame = frames.get(id);
    const us = durations[i] ?? 0;
    if (!frame) return;
    if (frame.functionName === IDLE) {
      idle += us;
    } else if (!frame.url && frame.functionName === WRITEV) {
      writev += us;
    } else {
      total += us;
      const k = keyOf(frame);
      byKey.set(k, (byKey.get(k) ?? 0) + us);
    }
  });
  return {
    totalMs: total / 1000,
    idleMs: idle / 1000,
    writevMs: writev / 1000,
    wallMs: (p.endTime - p.startTime) / 1000,
    shares: [...byKey].map(([key, us]) => ({ key, ms: us / 1000 })).sort((a, b) => b.ms - a.ms),
  };
}

/** A profile's self time by group ({@link groupOf}). */
export function cpuGroups(p: CpuProfile): CpuGroups {
  const { shares, ...rest } = selfTimes(p, groupOf);
  return { ...rest, by: 'group', groups: shares };
}

/** A profile's self time by function (`name group file:line`), largest first, idle and native `writev` apart. */
export function cpuFunctions(p: CpuProfile): CpuGroups {
  const { shares, ...rest } = selfTimes(
    p,
    (f) =>
      `${f.functionName || '(anonymous)'} ${groupOf(f)}${f.url ? ` ${f.url.slice(f.url.lastIndexOf('/') + 1)}:${f.lineNumber + 1}` : ''}`,
  );
  return { ...rest, by: 'function', groups: shares };
}

/**
 * The groups summed by kind: `npm`, `bookie`, `node` (Node's JavaScript), `(gc)`, `(program)`, `(native)`, and
 * `other` (any other file), largest first.
 */
export function cpuKinds(g: CpuGroups): CpuShare[] {
  const byKind = new Map<string, number>();
  for (const s of g.groups) {
    const kind = s.key.startsWith('(') ? s.key : (/^(npm|bookie|node):/.exec(s.key)?.[1] ?? 'other');
    byKind.set(kind, (byKind.get(kind) ?? 0) + s.ms);
  }
  return [...byKind].map(([key, ms]) => ({ key, ms })).sort((a, b) => b.ms - a.ms);
}

/** Reads a `.cpuprofile` file. */
export function readCpuProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/**
 * Lines that show `g` (a process's groups or functions), `rows` of them: the total, idle and `writev` first, then
 * each row's share of the total and, with `decisions`, its µs per decision. A sample lasts until the next one, so a
 * process descheduled on a loaded machine has its sampled time inflated; with `cpuMsPerDecision` (the process's CPU
 * measured from the system), the µs per decision are that CPU split by the shares instead (`writev` left out).
 */
export function formatCpuGroups(
  g: CpuGroups,
  opts: { label: string; rows?: number; decisions?: number; cpuMsPerDecision?: number },
): string[] {
  const { decisions, cpuMsPerDecision } = opts;
  const scale =
    cpuMsPerDecision !== undefined && decisions && g.totalMs > 0
      ? (cpuMsPerDecision * decisions) / g.totalMs
      : 1;
  const per = (ms: number) =>
    decisions ? ` ${((ms * scale * 1000) / decisions).toFixed(1).padStart(7)}µs/decision` : '';
  const sampled = (ms: number) => (decisions ? ` (${((ms * 1000) / decisions).toFixed(1)}µs/decision)` : '');
  const lines = [
    `  ${opts.label} cpu profile: ${g.totalMs.toFixed(0)} ms sampled${sampled(g.totalMs)} over ${g.wallMs.toFixed(0)} ms;` +
      ` idle ${g.idleMs.toFixed(0)} ms left out; native writev ${g.writevMs.toFixed(0)} ms${sampled(g.writevMs)} apart` +
      (cpuMsPerDecision !== undefined
        ? `; µs below: the measured ${cpuMsPerDecision.toFixed(3)} ms CPU/decision split by share`
        : ''),
  ];
  if (g.by === 'group') {
    lines.push(
      `  ${opts.label} by kind: ${cpuKinds(g)
        .map((k) => `${k.key} ${g.totalMs > 0 ? ((100 * k.ms) / g.totalMs).toFixed(1) : '0'}%`)
        .join(', ')}`,
    );
  }
  for (const s of g.groups.slice(0, opts.rows ?? 30)) {
    const pct = g.totalMs > 0 ? (100 * s.ms) / g.totalMs : 0;
    lines.push(`  ${opts.label} ${pct.toFixed(1).padStart(5)}%${per(s.ms)}  ${s.key}`);
  }
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, mode = 'group', rows = '40', decisions, cpuMs] = process.argv.slice(2);
  if (!file) {
    process.stderr.write(
      'usage: node --import tsx bench/cpu-groups.ts FILE [group|fn] [rows] [decisions] [cpuMsPerDecision]\n',
    );
    process.exit(2);
  }
  const p = readCpuProfile(file);
  const g = mode === 'fn' ? cpuFunctions(p) : cpuGroups(p);
  const lines = formatCpuGroups(g, {
    label: mode === 'fn' ? 'fn' : 'group',
    rows: Number(rows),
    ...(decisions ? { decisions: Number(decisions) } : {}),
    ...(cpuMs ? { cpuMsPerDecision: Number(cpuMs) } : {}),
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}
