import { mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { implicitTransaction } from './implicit-transaction.js';
import { PipelinedPostgresDialect, socketOf } from './pipelined-driver.js';

/** Postgres type OIDs whose parsing we pin on both drivers. */
const OID_INT8 = 20;
const OID_NUMERIC = 1700;

/** `int8` as bigint and `numeric` as its exact text, on both drivers. */
const parseInt8 = (v: string): bigint => BigInt(v);
const parseNumeric = (v: string): string => v;

/** Which engine a {@link Database} runs on. */
export type DatabaseKind = 'pg' | 'pglite';

/**
 * The storage handle passed to every repository and use case.
 * `int8` columns come back as `bigint` and `numeric` as exact strings on both drivers.
 */
// biome-ignore lint/suspicious/noExplicitAny: the schema is the caller's
export interface Database<DB = any> {
  readonly db: Kysely<DB>;
  readonly kind: DatabaseKind;
  /**
   * On Postgres: runs one parameterised statement on its own (autocommit, on a connection of the pool, as a named
   * prepared statement like every statement with parameters) and resolves to its rows, without going through Kysely:
   * for a hot path of one statement per request. Undefined on PGlite, whose one connection Kysely serialises: run
   * the statement through {@link Database.db} there.
   */
  readonly statement?: (text: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;
  /**
   * Runs the statements in order as one transaction, committed once, and resolves after the commit to each
   * statement's rows (in order); when one fails, the transaction rolls back whole and the promise rejects with the
   * first statement's error (the statements after a failing one fail as well: none of them is committed). For group
   * commit: the statements of several requests, each its own statement, made durable by one commit.
   *
   * On Postgres the statements go to one connection of their own (not the pool's), in one write, each a named
   * prepared statement like every statement with parameters. Once they are prepared on that connection, a batch of
   * statements with parameters runs as one implicit transaction: their messages and a single Sync, no `BEGIN` or
   * `COMMIT` statement (`implicitTransaction`); the first batch of a new statement, and a batch with a statement
   * without parameters, run as `BEGIN`, the statements, `COMMIT` (pg's pipeline mode). Calls made while one runs are
   * sent behind it on the same connection and run after it, in the order of the calls. One statement alone runs on
   * its own (autocommit). On PGlite, one Kysely transaction. Both engines of {@link openDatabase} have it.
   */
  readonly statements?: (batch: readonly StatementCall[]) => Promise<Record<string, unknown>[][]>;
  /** Subscribes to a NOTIFY channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Closes every connection (idempotent). */
  close(): Promise<void>;
}

/** One statement of {@link Database.statements}: its text and parameters. */
export interface StatementCall {
  text: string;
  params: readonly unknown[];
}

/**
 * Where the database lives: a Postgres URL, or a PGlite data directory (`undefined` = in memory). On Postgres,
 * `preparedStatements: false` runs every statement unnamed (for a pooler that cannot keep named statements, such as
 * PgBouncer in transaction mode before 1.21); default true. `pipeline: false` sends each statement of the pool's
 * connections only after the one before it is answered (for a pooler that refuses pipelined messages): a
 * transaction's `BEGIN`, `sendWrite` and `sendQuery` are then waited for, as any statement (ADR 0070); default true.
 */
export type DatabaseTarget =
  | { url: string; poolSize?: number; preparedStatements?: boolean; pipeline?: boolean }
  | { dataDir: string | undefined };

/**
 * Opens the database: `pg` for a URL, PGlite in-process otherwise. Migrations are not applied here.
 *
 * On Postgres, every statement with parameters runs as a named prepared statement, one name per distinct text
 * (docs/adr/0015-prepared-statements-and-the-placement-ceiling.md): parsed once per connection, and planned once
 * when Postgres settles on a generic plan. A migration that changes the columns of a table under running processes
 * makes their prepared `SELECT *` of it fail (`cached plan must not change result type`) until they restart.
 */
// biome-ignore lint/suspicious/noExplicitAny: the schema is the caller's
export async function openDatabase<DB = any>(target: DatabaseTarget): Promise<Database<DB>> {
  return 'url' in target
    ? openPostgres<DB>(
        target.url,
        target.poolSize ?? 10,
        target.preparedStatements ?? true,
        target.pipeline ?? true,
      )
    : openPGlite<DB>(target.dataDir);
}

/**
 * The session settings of every connection opened to Postgres (pg's `options`, sent at connection start): JIT
 * compilation off. The statements of an OLTP store take micro- to milliseconds; where a cost estimate passes
 * `jit_above_cost` (statistics of an empty or never analyzed table are enough), compiling takes tens to hundreds of
 * milliseconds per execution. A URL that carries its own `options` replaces these.
 */
const SESSION_OPTIONS = '-c jit=off';

function openPostgres<DB>(
  url: string,
  poolSize: number,
  preparedStatements: boolean,
  pipeline: boolean,
): Database<DB> {
  // the parsers are made once: pg asks for one per column of every result
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === OID_INT8) return parseInt8;
      if (oid === OID_NUMERIC) return parseNumeric;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({
    connectionString: url,
    options: SESSION_OPTIONS,
    max: poolSize,
    // Connections stay open once made (pg closes an idle one after 10 s by default): a burst after a lull would
    // otherwise wait on new connections, each preparing its statements again, and every release would arm a timer.
    idleTimeoutMillis: 0,
    // pg's pipeline mode: a statement is written when queued, so a transaction's BEGIN and the writes it does not
    // wait for share the round trip of the statement after them (PipelinedPostgresDialect)
    pipeline,
    types: types as pg.CustomTypesConfig,
    ...(preparedStatements ? { Client: preparingClient() } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PipelinedPostgresDialect(pool) });
  let closed = false;
  const listeners = new Set<pg.Client>();
  const pipelined = pipelinedConnection(url, types, preparedStatements);
  return {
    db,
    kind: 'pg',
    statements: pipelined.run,
    async statement(text, params) {
      const client = await pool.connect();
      try {
        return (await client.query(text, params as unknown[])).rows;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      const client = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (msg) => {
        if (msg.channel === channel) onPayload(msg.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.add(client);
      return async () => {
        listeners.delete(client);
        await client.end().catch(() => {});
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((c) => c.end().catch(() => {})));
      await pipelined.close();
      await db.destroy();
    },
  };
}

/**
 * The one connection of {@link Database.statements} on Postgres, in pg's pipeline mode: opened at the first call, and
 * opened again at the next call after it breaks (a batch on a broken connection fails, so its caller may run it
 * again).
 */
function pipelinedConnection(
  url: string,
  types: unknown,
  preparedStatements: boolean,
): { run: Database['statements']; close(): Promise<void> } {
  const nameOf = preparedStatements ? statementNames(MAX_PREPARED) : undefined;
  const Client = nameOf ? preparingClient(nameOf) : pg.Client;
  let current: Promise<pg.Client> | undefined;
  let closed = false;
  const connect = (): Promise<pg.Client> => {
    if (current) return current;
    const client = new Client({
      connectionString: url,
      options: SESSION_OPTIONS,
      types,
      pipeline: true,
    } as pg.ClientConfig);
    const opened = client.connect().then(() => client);
    const forget = () => {
      if (current === opened) current = undefined;
    };
    client.on('error', forget);
    client.on('end', forget);
    opened.catch(forget);
    current = opened;
    return opened;
  };
  return {
    async run(batch) {
      if (closed) throw new Error('the database is closed');
      const client = await connect();
      if (batch.length === 1) {
        const [only] = batch as [StatementCall];
        return [(await client.query(only.text, only.params as unknown[])).rows];
      }
      // once its statements are prepared on this connection, a batch is one implicit transaction: no BEGIN, no COMMIT
      // (a statement without parameters keeps the simple protocol, which also takes a script of several commands)
      const implicit = batch.every((s) => s.params.length > 0)
        ? implicitTransaction(
            client,
            batch.map((s) => ({
              name: nameOf && preparedName(nameOf, s.text, s.params),
              text: s.text,
              values: s.params,
            })),
          )
        : undefined;
      if (implicit) return implicit;
      // every query of the batch is queued at once, in order, so no other batch's query can come between them on
      // the connection; the socket is corked meanwhile, so they go out in one write rather than one per query
      const socket = socketOf(client);
      socket?.cork?.();
      const sent: Promise<pg.QueryResult>[] = [];
      try {
        sent.push(client.query('BEGIN'));
        for (const s of batch) sent.push(client.query(s.text, s.params as unknown[]));
        sent.push(client.query('COMMIT'));
      } finally {
        socket?.uncork?.();
      }
      const settled = await Promise.allSettled(sent);
      // after a failing statement, the rest fail as the transaction is aborted and COMMIT answers ROLLBACK
      for (const r of settled) if (r.status === 'rejected') throw r.reason;
      const commit = settled[settled.length - 1] as PromiseFulfilledResult<pg.QueryResult>;
      if (commit.value.command !== 'COMMIT')
        throw new Error(`the batch was not committed (${commit.value.command})`);
      return settled
        .slice(1, -1)
        .map((r) => (r as PromiseFulfilledResult<pg.QueryResult>).value.rows as Record<string, unknown>[]);
    },
    async close() {
      closed = true;
      const open = current;
      current = undefined;
      if (open) await open.then((c) => c.end()).catch(() => {});
    },
  };
}

/**
 * A statement whose text starts with this comment is never prepared by name: Postgres plans it at every run with its
 * parameters and the table's current size, instead of keeping the generic plan it settled on after five runs. For a
 * statement over a table whose size swings by orders of magnitude (a queue emptied and refilled at once): a generic
 * plan made while the table was empty can scan the whole table per row once it is full (ADR 0057).
 */
export const PLANNED_EACH_RUN = '/* planned each run */';

/** Distinct statement texts one process prepares at most; past it, statements run unnamed (planned each time). */
const MAX_PREPARED = 500;

/**
 * The name a statement runs under on a {@link preparingClient} that names texts with `nameOf`: undefined (unnamed)
 * for a statement without parameters, one marked {@link PLANNED_EACH_RUN}, or one past the named texts' bound.
 */
function preparedName(
  nameOf: (text: string) => string | undefined,
  text: string,
  params: readonly unknown[],
): string | undefined {
  return params.length > 0 && !text.startsWith(PLANNED_EACH_RUN) ? nameOf(text) : undefined;
}

/**
 * A `pg.Client` class that runs each parameterised statement as a named prepared statement, one name per distinct
 * text (the first {@link MAX_PREPARED} texts of the pool): Postgres parses it once per connection and, after a few
 * runs, keeps a generic plan, instead of parsing and planning it on every run. Statements without parameters
 * (BEGIN, COMMIT, DDL, scripts of several statements) keep the simple protocol; those starting with
 * {@link PLANNED_EACH_RUN} run unnamed (parsed and planned at every run).
 */
function preparingClient(
  nameOf: (text: string) => string | undefined = statementNames(MAX_PREPARED),
): typeof pg.Client {
  return class PreparingClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config === 'string' && Array.isArray(values)) {
        const name = preparedName(nameOf, config, values);
        if (name !== undefined) {
          if (callback !== undefined) return super.query({ name, text: config, values }, callback);
          const { query, result } = namedQuery(name, config, values);
          super.query(query);
          return result;
        }
      }
      return super.query(config, values, callback);
    }
  } as typeof pg.Client;
}

/** Texts up to this many characters are their own key in {@link statementNames}. */
const SHORT_TEXT = 128;
/** How many characters of a long text's head and of its tail make its key in {@link statementNames}. */
const KEY_EDGE = 48;

/**
 * The prepared statement name of each distinct text: `bookie_0`, `bookie_1`, … in order of first use, for the first
 * `max` texts; `undefined` for any other text once `max` are named. A short text is looked up by itself. A long one
 * is looked up by its length, head and tail, then compared whole with the texts of that key: callers build their
 * statement texts anew on each run, and a map keyed by a new long string hashes all of it (microseconds for a
 * statement of a few kilobytes), where the comparison of two equal texts is a memory compare.
 */
export function statementNames(max: number): (text: string) => string | undefined {
  const short = new Map<string, string>();
  const long = new Map<string, { text: string; name: string }[]>();
  let count = 0;
  return (text) => {
    if (text.length <= SHORT_TEXT) {
      let name = short.get(text);
      if (name === undefined && count < max) {
        name = `bookie_${count++}`;
        short.set(text, name);
      }
      return name;
    }
    const key = `${text.length}:${text.slice(0, KEY_EDGE)}\u0000${text.slice(-KEY_EDGE)}`;
    const texts = long.get(key);
    if (texts) for (const t of texts) if (t.text === text) return t.name;
    if (count >= max) return undefined;
    const name = `bookie_${count++}`;
    if (texts) texts.push({ text, name });
    else long.set(key, [{ text, name }]);
    return name;
  };
}

/**
 * A named statement as `client.query({ name, text, values })` would make it, without the copy of the config object
 * pg makes for that call shape (a property-descriptor copy, per query): built from the text, then named. Submitted
 * as a query object, its result (or error, with the stack of the caller) comes back through `result`, as pg gives
 * it.
 */
function namedQuery(
  name: string,
  text: string,
  values: unknown[],
): { query: pg.Query; result: Promise<unknown> } {
  const query = new pg.Query(text, values) as pg.Query & {
    name: string;
    callback: (err: Error | null, res: unknown) => void;
  };
  query.name = name;
  const result = new Promise((resolve, reject) => {
    query.callback = (err, res) => (err ? reject(err) : resolve(res));
  }).catch((err: Error) => {
    // as pg does: the stack of the caller rather than of the socket read that failed the query
    Error.captureStackTrace(err);
    throw err;
  });
  return { query, result };
}

/** Where the image of an empty PGlite cluster is kept between processes: one file per PGlite version. */
async function emptyClusterImageFile(): Promise<string> {
  // …/node_modules/@electric-sql/pglite/dist/index.js → …/pglite/package.json
  const pkg = join(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json');
  const { version } = JSON.parse(await readFile(pkg, 'utf8')) as { version: string };
  return join(tmpdir(), 'bookie-pglite', `empty-cluster-${version}.tar`);
}

let emptyCluster: Promise<Blob | undefined> | undefined;

/**
 * The data directory of a freshly initialised PGlite cluster, as a tarball: made once (an `initdb` takes ~2 s
 * here), kept in the system's temporary directory for the next processes, and loaded by every in-memory database
 * (~0.8 s). Undefined when it can be neither read nor made: then the database runs its own `initdb`.
 */
function emptyClusterImage(): Promise<Blob | undefined> {
  emptyCluster ??= (async () => {
    let file: string;
    try {
      file = await emptyClusterImageFile();
    } catch {
      return undefined;
    }
    try {
      return new Blob([await readFile(file)]);
    } catch {}
    try {
      const fresh = new PGlite();
      await fresh.waitReady;
      const image = await fresh.dumpDataDir('none');
      await fresh.close();
      mkdirSync(dirname(file), { recursive: true });
      // written whole under another name, then renamed: a concurrent reader sees all of it or nothing
      const partial = `${file}.${process.pid}.${Date.now()}`;
      await writeFile(partial, Buffer.from(await image.arrayBuffer()));
      await rename(partial, file);
      return image;
    } catch {
      return undefined;
    }
  })();
  return emptyCluster;
}

async function openPGlite<DB>(dataDir: string | undefined): Promise<Database<DB>> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // one process per data directory: a second one is refused before PGlite touches the files
  const lock = dataDir ? lockDataDir(dataDir) : undefined;
  try {
    return await openPGliteLocked<DB>(dataDir, () => lock?.release());
  } catch (e) {
    lock?.release();
    throw e;
  }
}

async function openPGliteLocked<DB>(dataDir: string | undefined, unlock: () => void): Promise<Database<DB>> {
  const parsers = { [OID_INT8]: parseInt8, [OID_NUMERIC]: parseNumeric };
  const image = dataDir ? undefined : await emptyClusterImage();
  let client: PGlite | undefined;
  if (image) {
    try {
      client = new PGlite({ loadDataDir: image, parsers });
      await client.waitReady;
    } catch {
      // an image this PGlite cannot load: start from its own initdb instead
      await client?.close().catch(() => {});
      client = undefined;
    }
  }
  // options go in one object: `new PGlite(undefined, opts)` would drop them
  client ??= new PGlite({ ...(dataDir ? { dataDir } : {}), parsers });
  await client.waitReady;
  // the session settings of a Postgres connection (SESSION_OPTIONS), on PGlite's one connection: it has no JIT
  // provider, so this only makes `SHOW jit` answer alike on both engines
  await client.exec('SET jit = off');
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    statements: (batch) =>
      db.transaction().execute(async (tx) => {
        const rows: Record<string, unknown>[][] = [];
        for (const s of batch)
          rows.push(
            (await tx.executeQuery(CompiledQuery.raw(s.text, [...s.params]))).rows as Record<
              string,
              unknown
            >[],
          );
        return rows;
      }),
    async listen(channel, onPayload) {
      return client.listen(channel, onPayload);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.destroy();
      } finally {
        unlock();
      }
    },
  };
}
