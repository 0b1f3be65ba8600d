import { hasControlCharacter, ID_MAX_LENGTH, SportEvent } from '@bookie/contracts';
import { formatFeedOddValue, parseFeedOddValue, validationError } from '@bookie/core';
import { TypeCompiler } from '@sinclair/typebox/compiler';

const checker = TypeCompiler.Compile(SportEvent);

/** Fixture statuses after which snapshot retention starts counting (spec 02 "Limits"): ended, closed, cancelled, abandoned. */
export const FINISHED_STATUSES: ReadonlySet<number> = new Set([3, 4, 5, 6]);

/**
 * Validates a whole snapshot against the contract (spec 02 "Sport event snapshot").
 * Returns the JSON-pointer-like path of the first bad node (e.g. `markets/1/odds/2/value`) and the reason, or
 * undefined when the snapshot is valid.
 */
export function snapshotProblem(event: unknown): { path: string; reason: string } | undefined {
  if (checker.Check(event)) return keyProblem(event as SportEvent);
  const first = checker.Errors(event).First();
  if (!first) return { path: '', reason: 'is invalid' };
  return { path: first.path.replace(/^\//, ''), reason: first.message };
}

function badKey(record: Record<string, unknown>, path: string): { path: string; reason: string } | undefined {
  for (const key of Object.keys(record)) {
    if (key.length > ID_MAX_LENGTH)
      return { path: `${path}/${key.slice(0, 40)}…`, reason: `key longer than ${ID_MAX_LENGTH}` };
    if (hasControlCharacter(key))
      return { path: `${path}/${JSON.stringify(key)}`, reason: 'key holds a control character' };
  }
  return undefined;
}

/** The ids a snapshot is keyed by (competitors, scores, markets, odds, specifiers) follow the id rule of contracts. */
function keyProblem(event: SportEvent): { path: string; reason: string } | undefined {
  const competitors = event.fixture.competitors;
  let p = badKey(competitors, 'fixture/competitors');
  for (const [id, c] of Object.entries(competitors))
    p ??= badKey(c.scores, `fixture/competitors/${id}/scores`);
  p ??= badKey(event.markets, 'markets');
  for (const [id, m] of Object.entries(event.markets)) {
    p ??= badKey(m.odds, `markets/${id}/odds`) ?? badKey(m.specifiers, `markets/${id}/specifiers`);
  }
  return p;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function normaliseOdd(odd: unknown, field: string): void {
  if (isObject(odd) && 'value' in odd) odd.value = normaliseValue(odd.value, `${field}.value`);
}

function normaliseValue(value: unknown, field: string): string {
  return formatFeedOddValue(parseFeedOddValue(value, field));
}

function normaliseOdds(odds: unknown, field: string): void {
  if (!isObject(odds)) return;
  for (const [id, odd] of Object.entries(odds)) normaliseOdd(odd, `${field}.${id}`);
}

function normaliseMarket(market: unknown, field: string): void {
  if (isObject(market)) normaliseOdds(market.odds, `${field}.odds`);
}

/**
 * Rewrites every odd value reached by a change at `segments` to exactly 12 decimals (DECISIONS D1), in place, and
 * returns the (possibly new) value to store. Odd values must be decimal strings ≥ 1 with at most 12 decimals.
 *
 * @throws DomainError validation_error naming `field` (e.g. `changes.markets/1/odds/2/value`).
 */
export function normaliseOddValuesAt(segments: string[], value: unknown, field: string): unknown {
  if (segments[0] !== 'markets') return value;
  switch (segments.length) {
    case 1:
      if (isObject(value)) for (const [id, m] of Object.entries(value)) normaliseMarket(m, `${field}.${id}`);
      return value;
    case 2:
      normaliseMarket(value, field);
      return value;
    case 3:
      if (segments[2] === 'odds') normaliseOdds(value, field);
      return value;
    case 4:
      if (segments[2] === 'odds') normaliseOdd(value, field);
      return value;
    case 5:
      if (segments[2] === 'odds' && segments[4] === 'value') return normaliseValue(value, field);
      return value;
    default:
      return value;
  }
}

/** Rewrites every odd value of a whole snapshot to 12 decimals (DECISIONS D1). */
export function normaliseSnapshotOdds(event: Record<string, unknown>, field: string): void {
  normaliseOddValuesAt(['markets'], event.markets, `${field}.markets`);
}

/** Fixture statuses that never become live or prematch again (spec 02 "Fixture status"): closed, cancelled, abandoned. */
export const FINAL_FIXTURE_STATUSES: ReadonlySet<number> = new Set([4, 5, 6]);
/** Statuses in which an event is, or may become again, prematch or live: not started, live, suspended, delayed, unknown. */
const REOPENING_FIXTURE_STATUSES: ReadonlySet<number> = new Set([0, 1, 2, 7, 8]);

/**
 * Why a fixture status change is not allowed, or undefined: closed, cancelled and abandoned (4, 5, 6) never become
 * live or prematch again, nor a status that can (suspended, delayed, unknown); they may still move among 3–6
 * (docs/adr/0016-safety-and-conformance.md).
 */
export function fixtureTransitionProblem(
  from: number | undefined,
  to: number | undefined,
): string | undefined {
  if (from === undefined || to === undefined || from === to) return undefined;
  if (FINAL_FIXTURE_STATUSES.has(from) && REOPENING_FIXTURE_STATUSES.has(to)) {
    return `fixture status ${from} → ${to} is not allowed: status ${from} never becomes live or prematch again`;
  }
  return undefined;
}

const OFFSET_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?([+-]\d{2}:\d{2})$/;

/** An ISO 8601 time with an offset as the same instant in UTC (`Z`), fraction digits kept; others unchanged. */
export function toUtc(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = OFFSET_TIME.exec(value);
  if (!m) return value;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return value;
  return `${new Date(ms).toISOString().slice(0, 19)}${m[2] ?? ''}Z`;
}

/**
 * Writes the fixture's `start_time` reached by a change at `segments` (or a whole snapshot at `[]`) in UTC (spec 02:
 * times are UTC), in place, and returns the value to store.
 */
export function normaliseTimesAt(segments: string[], value: unknown): unknown {
  const path = segments.join('/');
  if (path === 'fixture/start_time') return toUtc(value);
  const fixture = path === 'fixture' ? value : path === '' && isObject(value) ? value.fixture : undefined;
  if (isObject(fixture) && 'start_time' in fixture) fixture.start_time = toUtc(fixture.start_time);
  return value;
}

/** The current time as ISO 8601 with milliseconds (spec 02 `updated_at`). */
export function isoNow(ms: number): string {
  return new Date(ms).toISOString();
}

/** Throws a validation error about the whole snapshot, naming `field`. */
export function invalidSnapshot(field: string, reason: string): never {
  throw validationError(field, reason);
}
