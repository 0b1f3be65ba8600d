import pg from 'pg';
import utils from 'pg/lib/utils.js';

/** One statement of an {@link implicitTransaction}: its prepared statement's name (undefined: unnamed), text, values. */
export interface ImplicitStatement {
  name: string | undefined;
  text: string;
  values: readonly unknown[];
}

/** The part of pg's connection an {@link implicitTransaction} writes to (the extended query protocol's messages). */
interface ProtocolConnection {
  parsedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(msg: { text: string; name: string; types: unknown[] }): void;
  bind(msg: { portal: string; statement: string; values: unknown[] }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: { portal: string }): void;
  sync(): void;
}

/** pg's query internals the multi-statement query takes over. */
type ImplicitQuery = Omit<pg.Query, 'submit' | 'callback'> & {
  submit(connection: ProtocolConnection): Error | null;
  callback(err: Error | null, res: pg.QueryResult | pg.QueryResult[] | undefined): void;
};

/**
 * Runs `statements` on `client` as one transaction without `BEGIN` or `COMMIT`: each statement's Bind, Describe and
 * Execute messages (and its Parse, when it is unnamed) are written together, followed by a single Sync. Postgres runs
 * the statements before a Sync that are not inside an explicit transaction block as one implicit transaction (the
 * extended query protocol, "Pipelining" in the Postgres manual): in order, each under READ COMMITTED with a snapshot
 * of its own that includes the writes of the statements before it, committed at the Sync — durably, as any commit —
 * or rolled back whole when one of them fails (the statements after a failing one are not run). Resolves to each
 * statement's rows, in order, once committed; rejects with the first failure (the batch is then not committed).
 *
 * Returns undefined, and sends nothing, when a named statement is not yet parsed on this connection: the caller runs
 * that batch in an explicit transaction, which prepares it (pg records a parse by the query that made it, and one
 * query here carries several statements). On a client in pg's pipeline mode the batch is queued behind the queries
 * already sent and answered in turn, as any query.
 *
 * Uses pg's protocol methods of its connection (`parse`, `bind`, `describe`, `execute`, `sync`) and its result
 * handling of several statements in one query (as for a simple-protocol script).
 */
export function implicitTransaction(
  client: pg.Client,
  statements: readonly ImplicitStatement[],
): Promise<Record<string, unknown>[][]> | undefined {
  const connection = (client as unknown as { connection: ProtocolConnection }).connection;
  for (const s of statements)
    if (s.name !== undefined && connection.parsedStatements[s.name] !== s.text) return undefined;
  // the values are mapped first, so nothing is written unless every message can be
  const values = statements.map((s) => s.values.map((v) => utils.prepareValue(v)));
  const query = new pg.Query('') as unknown as ImplicitQuery;
  const done = new Promise<Record<string, unknown>[][]>((resolve, reject) => {
    query.callback = (err, res) => {
      if (err) {
        reject(err);
        return;
      }
      const results = Array.isArray(res) ? res : res ? [res] : [];
      if (results.length !== statements.length)
        reject(new Error(`${results.length} results for ${statements.length} statements`));
      else resolve(results.map((r) => r.rows as Record<string, unknown>[]));
    };
  });
  query.submit = (con) => {
    con.stream.cork?.();
    try {
      statements.forEach((s, i) => {
        if (s.name === undefined) con.parse({ text: s.text, name: '', types: [] });
        con.bind({ portal: '', statement: s.name ?? '', values: values[i] as unknown[] });
        con.describe({ type: 'P', name: '' });
        con.execute({ portal: '' });
      });
      con.sync();
    } finally {
      con.stream.uncork?.();
    }
    return null;
  };
  client.query(query as unknown as pg.Query);
  return done;
}
