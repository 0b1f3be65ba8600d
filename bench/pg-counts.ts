/**
 * Exact database counts per decision, read from a throwaway cluster (bench/pg-cluster.ts): statements per database
 * (`pg_stat_statements`, top-level statements, BEGIN/COMMIT included and also counted apart), transactions
 * (`pg_stat_database` xact_commit + xact_rollback) and row writes (`pg_stat_user_tables` n_tup_ins/upd/del and
 * n_tup_hot_upd). Counts do not depend on the machine's load; CPU ms do.
 *
 * Postgres publishes a backend's transaction and table counters up to ~10 s late when the backend goes idle, so a
 * snapshot first waits that out (`settleMs`).
 */
import pg from 'pg';

/** The wait before a snapshot for idle backends to publish their counters (PGSTAT_IDLE_INTERVAL is 10 s). */
export const STATS_SETTLE_MS = 11_000;

interface StatementRow {
  query: string;
  calls: number;
  rows: number;
  execMs: number;
  /** Functions JIT-compiled, and the ms spent compiling them (part of execMs). */
  jitFunctions: number;
  jitMs: number;
}

interface DbCounts {
  statements: Map<string, StatementRow>;
  xacts: number;
  tables: Map<string, { ins: number; upd: number; del: number; hot: number }>;
}

/** A snapshot: counts per database label, and the cluster's WAL (`pg_stat_wal`) under `wal`. */
export type Snapshot = Map<string, DbCounts> & { wal?: WalCounts };

/** The cluster's WAL written so far (`pg_stat_wal`): every database of the cluster together. */
interface WalCounts {
  records: number;
  fpi: number;
  bytes: number;
}

const withClient = async <T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};

const dbUrl = (base: string, name: string) => {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
};

/** Counters of `databases` (label → database name) now; `clusterUrl` reaches the cluster's `postgres` database. */
export async function snapshot(clusterUrl: string, databases: Record<string, string>): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const names = Object.values(databases);
  const [stmts, xacts, wal] = await withClient(clusterUrl, async (c) => {
    const s = await c.query<{
      datname: string;
      query: string;
      calls: string;
      rows: string;
      ms: number;
      jit_functions: string;
      jit_ms: number;
    }>(
      `select d.datname, s.query, s.calls::text as calls, s.rows::text as rows, s.total_exec_time as ms,
              s.jit_functions::text as jit_functions,
              s.jit_generation_time + s.jit_inlining_time + s.jit_optimization_time + s.jit_emission_time as jit_ms
         from pg_stat_statements s join pg_database d on d.oid = s.dbid
        where d.datname = any($1) and s.query not like '%pg\\_stat\\_%'`,
      [names],
    );
    const x = await c.query<{ datname: string; n: string }>(
      `select datname, (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = any($1)`,
      [names],
    );
    const w = await c.query<{ records: string; fpi: string; bytes: string }>(
      `select wal_records::text as records, wal_fpi::text as fpi, wal_bytes::text as bytes from pg_stat_wal`,
    );
    return [s.rows, x.rows, w.rows[0]];
  });
  if (wal) out.wal = { records: Number(wal.records), fpi: Number(wal.fpi), bytes: Number(wal.bytes) };
  for (const [label, name] of Object.entries(databases)) {
    const statements = new Map<string, StatementRow>();
    for (const r of stmts.filter((r) => r.datname === name)) {
      const prev = statements.get(r.query);
      statements.set(r.query, {
        query: r.query,
        calls: (prev?.calls ?? 0) + Number(r.calls),
        rows: (prev?.rows ?? 0) + Number(r.rows),
        execMs: (prev?.execMs ?? 0) + r.ms,
        jitFunctions: (prev?.jitFunctions ?? 0) + Number(r.jit_functions),
        jitMs: (prev?.jitMs ?? 0) + r.jit_ms,
      });
    }
    const tables = await withClient(dbUrl(clusterUrl, name), async (c) => {
      const t = await c.query<{ relname: string; ins: string; upd: string; del: string; hot: string }>(
        `select relname, n_tup_ins::text as ins, n_tup_upd::text as upd, n_tup_del::text as del,
                n_tup_hot_upd::text as hot
           from pg_stat_user_tables`,
      );
      return new Map(
        t.rows.map((r) => [
          r.relname,
          { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del), hot: Number(r.hot) },
        ]),
      );
    });
    out.set(label, {
      statements,
      xacts: Number(xacts.find((r) => r.datname === name)?.n ?? 0),
      tables,
    });
  }
  return out;
}

const isTxControl = (q: string) => /^\s*(begin|commit|rollback|start transaction)\b/i.test(q);

/**
 * Per-decision figures of each database between two snapshots: `<label>_statements`, `<label>_statements_dml`
 * (without BEGIN/COMMIT/ROLLBACK), `<label>_xacts`, `<label>_row_writes`, `<label>_hot_updates`,
 * `<label>_nonhot_updates`, `<label>_exec_us` (Postgres execution time), and the cluster's `wal_bytes`, `wal_records`,
 * `wal_fpi` (full-page images; every database together, from `pg_stat_wal`); `detail` lists each table's writes and the
 * statements run ≥ 0.05 times per decision or taking ≥ 2 % of the execution time.
 */
export function perDecision(
  a: Snapshot,
  b: Snapshot,
  decisions: number,
): { metrics: Record<string, number>; detail: string[] } {
  const metrics: Record<string, number> = {};
  const detail: string[] = [];
  const per = (n: number) => n / decisions;
  if (a.wal && b.wal) {
    // the whole cluster's WAL: every database of the bench together
    metrics.wal_bytes = per(b.wal.bytes - a.wal.bytes);
    metrics.wal_records = per(b.wal.records - a.wal.records);
    metrics.wal_fpi = per(b.wal.fpi - a.wal.fpi);
  }
  for (const [label, end] of b) {
    const start = a.get(label);
    let all = 0;
    let dml = 0;
    const rows: {
      q: string;
      calls: number;
      rows: number;
      ms: number;
      jitFunctions: number;
      jitMs: number;
    }[] = [];
    for (const [q, s] of end.statements) {
      const s0 = start?.statements.get(q);
      const calls = s.calls - (s0?.calls ?? 0);
      if (calls <= 0) continue;
      all += calls;
      if (!isTxControl(q)) dml += calls;
      rows.push({
        q,
        calls,
        rows: s.rows - (s0?.rows ?? 0),
        ms: s.execMs - (s0?.execMs ?? 0),
        jitFunctions: s.jitFunctions - (s0?.jitFunctions ?? 0),
        jitMs: s.jitMs - (s0?.jitMs ?? 0),
      });
    }
    let ins = 0;
    let upd = 0;
    let del = 0;
    let hot = 0;
    const tableLines: string[] = [];
    for (const [t, w] of end.tables) {
      const w0 = start?.tables.get(t) ?? { ins: 0, upd: 0, del: 0, hot: 0 };
      const d = { ins: w.ins - w0.ins, upd: w.upd - w0.upd, del: w.del - w0.del, hot: w.hot - w0.hot };
      ins += d.ins;
      upd += d.upd;
      del += d.del;
      hot += d.hot;
      if (d.ins + d.upd + d.del > 0) {
        tableLines.push(
          `  ${label} ${t}: ins ${per(d.ins).toFixed(2)} upd ${per(d.upd).toFixed(2)} (hot ${per(d.hot).toFixed(2)}) del ${per(d.del).toFixed(2)}`,
        );
      }
    }
    const totalMs = rows.reduce((a, r) => a + r.ms, 0);
    metrics[`${label}_jit_ms`] = rows.reduce((a, r) => a + r.jitMs, 0) / decisions;
    metrics[`${label}_statements`] = per(all);
    metrics[`${label}_exec_us`] = (totalMs * 1000) / decisions;
    metrics[`${label}_statements_dml`] = per(dml);
    metrics[`${label}_xacts`] = per(end.xacts - (start?.xacts ?? 0));
    metrics[`${label}_row_writes`] = per(ins + upd + del);
    metrics[`${label}_hot_updates`] = per(hot);
    metrics[`${label}_nonhot_updates`] = per(upd - hot);
    detail.push(...tableLines.sort());
    for (const r of rows.sort((x, y) => y.calls - x.calls)) {
      // the frequent ones, and the rare ones that cost (e.g. a sweep every 2 s)
      if (per(r.calls) < 0.05 && r.ms < totalMs * 0.02) continue;
      const q = r.q.replace(/\s+/g, ' ').slice(0, 150);
      const jit =
        r.jitFunctions > 0
          ? ` (JIT ${r.jitFunctions} fns, ${((r.jitMs * 1000) / r.calls).toFixed(0)}µs/call)`
          : '';
      detail.push(
        `  ${label} ${per(r.calls).toFixed(3)}/decision rows ${(r.rows / r.calls).toFixed(1)}/call exec ${((r.ms * 1000) / r.calls).toFixed(0)}µs/call, ${((r.ms * 1000) / decisions).toFixed(1)}µs/decision${jit}: ${q}`,
      );
    }
  }
  return { metrics, detail };
}
