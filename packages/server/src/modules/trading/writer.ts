import type { SportEvent } from '@bookie/contracts';
import { DomainError, marketProbabilities, parseFeedOddValue, validationError } from '@bookie/core';
import { applyChanges, ChangePathError, parseChangePath } from '@bookie/sdk';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { recordClosingOdds } from './closing-odds.repo.js';
import {
  FINISHED_STATUSES,
  fixtureTransitionProblem,
  isoNow,
  normaliseOddValuesAt,
  normaliseSnapshotOdds,
  normaliseTimesAt,
  snapshotProblem,
} from './snapshot-rules.js';
import {
  appendLog,
  loadSnapshot,
  lockWriter,
  type NewLogEntry,
  notifyLog,
  type SnapshotRow,
  writeSnapshots,
} from './trading.repo.js';

/**
 * What the trading writer needs. `feed.poke()` (when present) wakes this process's fan-out after a commit;
 * `feed.doorbell: false` spares the NOTIFY that wakes the other processes' (they poll).
 */
export interface TradingDeps {
  database: Database;
  clock: Clock;
  feed?: { poke(): void; doorbell?: boolean } | undefined;
}

/** A queued entry: its type, event, and the JSON of its fields after `timestamp`, serialised when queued. */
interface Pending {
  type: 'match_new' | 'match_update' | 'bet_rollback';
  eventId: string;
  tail: string;
}

/** The fields of a bet_rollback entry after `type` (spec 02 "Log entry"). */
export interface BetRollbackFields {
  match_id: string;
  market_ids: string[];
  reason: string;
  dt_start: string;
  dt_end: string;
}

interface Loaded {
  event: SportEvent;
  finishedAt: Date | null;
  dirty: boolean;
  /** The stored snapshot while the event had not started, for its closing prices (D40). */
  notStarted?: string;
}

/**
 * One trading transaction (DECISIONS D21): holds the writer lock, loads snapshots, queues entries; on
 * {@link TradingTransaction.commit} draws the versions, appends the log lines and writes the snapshots.
 * Every validation error is thrown before anything is written, and the transaction rolls back.
 */
export class TradingTransaction {
  private readonly events = new Map<string, Loaded>();
  private readonly pending: Pending[] = [];
  /** Unix ms of this transaction, the time of every entry it writes. */
  readonly nowMs: number;

  constructor(
    /** The transaction, for modules that write in it alongside the log (odds shading). */
    readonly tx: Executor,
    clock: Clock,
  ) {
    this.nowMs = clock.now();
  }

  /** The current snapshot of an event (including changes queued in this transaction), or undefined. */
  async find(eventId: string): Promise<SportEvent | undefined> {
    const cached = this.events.get(eventId);
    if (cached) return cached.event;
    const stored = await loadSnapshot(this.tx, eventId);
    if (!stored) return undefined;
    const event = JSON.parse(stored.snapshot) as SportEvent;
    const loaded: Loaded = {
      event,
      finishedAt: stored.finishedAt,
      dirty: false,
      ...(event.fixture.status === 0 ? { notStarted: stored.snapshot } : {}),
    };
    this.events.set(eventId, loaded);
    return loaded.event;
  }

  /**
   * The current snapshot of an event.
   * @throws DomainError validation_error naming `field` when the event is unknown (unknown event → 400).
   */
  async get(eventId: string, field = 'id'): Promise<SportEvent> {
    const e = await this.find(eventId);
    if (!e) throw validationError(field, `unknown sport event "${eventId}"`);
    return e;
  }

  /**
   * Queues a `match_new` with a whole snapshot (create, or refetch of the current one). The snapshot is validated
   * and its odd values written with 12 decimals.
   * @throws DomainError validation_error naming `field.<path>`.
   */
  matchNew(event: SportEvent, field = 'body'): void {
    normaliseSnapshotOdds(event as unknown as Record<string, unknown>, field);
    normaliseTimesAt([], event);
    setProbabilities(event, Object.keys(event.markets ?? {}));
    const problem = snapshotProblem(event);
    if (problem) {
      const path = problem.path.split('/').filter(Boolean).join('.');
      throw validationError(path ? `${field}.${path}` : field, problem.reason);
    }
    const prev = this.events.get(event.id);
    this.events.set(event.id, { event, finishedAt: prev?.finishedAt ?? null, dirty: true });
    this.pending.push({
      type: 'match_new',
      eventId: event.id,
      tail: `,"sport_event":${JSON.stringify(event)}}`,
    });
  }

  /** Queues a re-send of the current snapshot as `match_new` (DECISIONS D23). */
  async refetch(eventId: string): Promise<void> {
    const e = await this.find(eventId);
    if (!e) throw new DomainError('not_found', `unknown sport event "${eventId}"`, { id: eventId });
    this.events.get(eventId)!.dirty = true;
    this.pending.push({ type: 'match_new', eventId, tail: `,"sport_event":${JSON.stringify(e)}}` });
  }

  /**
   * Queues a `match_update` (spec 02, DECISIONS D24): checks every path, writes odd values with 12 decimals,
   * adds `updated_at` unless given, applies the changes (shallower first) and validates the resulting snapshot.
   *
   * @param fieldOf - names the request field of a change key in errors (default `changes.<key>`).
   * @throws DomainError validation_error naming the field; nothing is written.
   */
  async matchUpdate(
    eventId: string,
    changes: Record<string, unknown>,
    fieldOf: (key: string) => string = (k) => `changes.${k}`,
    idField = 'id',
  ): Promise<void> {
    const event = await this.get(eventId, idField);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(changes)) {
      let segments: string[];
      try {
        segments = parseChangePath(key);
      } catch (err) {
        if (err instanceof ChangePathError) throw validationError(fieldOf(key), err.reason);
        throw err;
      }
      if (segments[0] === 'id') throw validationError(fieldOf(key), 'the sport event id cannot change');
      out[key] = normaliseTimesAt(segments, normaliseOddValuesAt(segments, changes[key], fieldOf(key)));
    }
    if (!Object.hasOwn(out, 'updated_at')) out.updated_at = isoNow(this.nowMs);
    const statusBefore = event.fixture?.status;
    try {
      applyChanges(event as unknown as Record<string, unknown>, out, true);
    } catch (err) {
      if (err instanceof ChangePathError) throw validationError(fieldOf(err.path), err.reason);
      throw err;
    }
    // every odd carries its margin-free probability, changed in the same entry as the odds
    if (this.problemFree(event)) {
      for (const [key, p] of setProbabilities(event, touchedMarkets(event, Object.keys(out)))) out[key] = p;
    }
    // serialise now: later changes in this transaction may mutate the objects stored by this one
    const tail = `,"changes":${JSON.stringify(out)}}`;
    const problem = snapshotProblem(event);
    if (problem) {
      // name the change that produced the bad node: the longest key that is a prefix of the bad path (or below it)
      const bad = problem.path;
      const key =
        Object.keys(out)
          .filter((k) => bad === k || bad.startsWith(`${k}/`) || k.startsWith(`${bad}/`))
          .sort((a, b) => b.length - a.length)[0] ?? Object.keys(out)[0]!;
      const where = bad && bad !== key ? ` (at ${bad})` : '';
      throw validationError(fieldOf(key), `${problem.reason}${where}`, { path: bad });
    }
    const refused = fixtureTransitionProblem(statusBefore, event.fixture?.status);
    if (refused) {
      const key =
        Object.keys(out)
          .filter((k) => k === '' || 'fixture/status' === k || 'fixture/status'.startsWith(`${k}/`))
          .sort((a, b) => b.length - a.length)[0] ?? Object.keys(out)[0]!;
      throw validationError(fieldOf(key), refused, {
        transition: `${statusBefore}->${event.fixture?.status}`,
      });
    }
    this.events.get(eventId)!.dirty = true;
    this.pending.push({ type: 'match_update', eventId, tail });
  }

  private problemFree(event: SportEvent): boolean {
    return snapshotProblem(event) === undefined;
  }

  /** Queues a `bet_rollback` for a known event (spec 02 "Log entry"). */
  async betRollback(eventId: string, body: Omit<BetRollbackFields, 'match_id'>): Promise<void> {
    await this.get(eventId);
    const b: BetRollbackFields = { match_id: eventId, ...body };
    const tail = `,"match_id":${JSON.stringify(b.match_id)},"market_ids":${JSON.stringify(b.market_ids)},"reason":${JSON.stringify(b.reason)},"dt_start":${JSON.stringify(b.dt_start)},"dt_end":${JSON.stringify(b.dt_end)}}`;
    this.pending.push({ type: 'bet_rollback', eventId, tail });
  }

  /** Number of entries queued so far. */
  get size(): number {
    return this.pending.length;
  }

  /**
   * Draws the versions, appends the log lines, writes the dirty snapshots (each with the version of its last
   * entry). Returns the version of every entry, in order.
   */
  async commit(): Promise<bigint[]> {
    if (this.pending.length === 0) return [];
    const timestamp = Math.floor(this.nowMs / 1000);
    const entries: NewLogEntry[] = this.pending.map((p) => ({
      sport_event_id: p.eventId,
      type: p.type,
      rest: `,"sport_event_id":${JSON.stringify(p.eventId)},"type":"${p.type}","timestamp":${timestamp}${p.tail}`,
    }));
    const versions = await appendLog(this.tx, entries);
    const lastVersion = new Map<string, bigint>();
    for (let i = 0; i < this.pending.length; i++) {
      // the snapshot's version is the version of its latest entry, a bet_rollback included (spec 02)
      lastVersion.set(this.pending[i]!.eventId, versions[i]!);
    }
    const snaps: SnapshotRow[] = [];
    for (const [id, version] of lastVersion) {
      const loaded = this.events.get(id)!;
      const status = loaded.event.fixture.status;
      // the event starts (or ends without starting): its last prices before that are the closing line (D40)
      if (loaded.notStarted !== undefined && status !== 0) {
        await recordClosingOdds(this.tx, JSON.parse(loaded.notStarted) as SportEvent);
      }
      const finished = FINISHED_STATUSES.has(status);
      const json = JSON.stringify(loaded.event);
      snaps.push({
        id,
        version,
        fixture_status: status,
        snapshot: json,
        finished_at: finished ? (loaded.finishedAt ?? new Date(this.nowMs)) : null,
      });
    }
    await writeSnapshots(this.tx, snaps);
    return versions;
  }
}

/** The markets a change touches: `markets/<id>…` that market; `markets` or the whole event, all of them. */
function touchedMarkets(event: SportEvent, keys: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const key of keys) {
    const [head, id] = key.split('/');
    if (head === 'markets' && id !== undefined) ids.add(id);
    else if (head === 'markets' || key === '') return Object.keys(event.markets ?? {});
  }
  return [...ids].filter((id) => Object.hasOwn(event.markets ?? {}, id));
}

/**
 * Writes each odd's `probability` in the given markets (margin removed proportionally over the active odds; 0 for
 * an inactive odd) and returns the change paths whose value changed.
 */
function setProbabilities(event: SportEvent, marketIds: readonly string[]): [string, string][] {
  const changed: [string, string][] = [];
  for (const marketId of marketIds) {
    const market = event.markets[marketId];
    if (!market) continue;
    const odds = Object.entries(market.odds);
    const probabilities = marketProbabilities(
      odds.map(([, o]) => ({ value: parseFeedOddValue(o.value, 'value'), active: o.is_active })),
    );
    odds.forEach(([oddId, odd], i) => {
      const p = probabilities[i] ?? '0.000000000000';
      if (odd.probability === p) return;
      odd.probability = p;
      changed.push([`markets/${marketId}/odds/${oddId}/probability`, p]);
    });
  }
  return changed;
}

/**
 * Runs one trading command in one transaction (DECISIONS D21): takes the writer lock, lets `fn` load snapshots and
 * queue entries, then appends them with ascending versions and updates the snapshots. After commit, wakes the
 * fan-out of this process and, by a NOTIFY outside the transaction, of the others. Returns `fn`'s result and the
 * versions of the entries written.
 */
export async function runTradingCommand<T>(
  deps: TradingDeps,
  fn: (t: TradingTransaction) => Promise<T>,
): Promise<{ result: T; versions: bigint[] }> {
  const out = await inTransaction(deps.database.db, async (tx) => {
    // one PGlite connection already runs one transaction at a time: the lock matters across Postgres sessions
    if (deps.database.kind !== 'pglite') await lockWriter(tx);
    const t = new TradingTransaction(tx, deps.clock);
    const result = await fn(t);
    const versions = await t.commit();
    return { result, versions };
  });
  const last = out.versions[out.versions.length - 1];
  if (last !== undefined) {
    deps.feed?.poke();
    if (deps.feed?.doorbell !== false) {
      // after commit, on purpose: a NOTIFY inside the transaction would serialise every commit that notifies
      notifyLog(deps.database.db, last).catch(() => {});
    }
  }
  return out;
}
