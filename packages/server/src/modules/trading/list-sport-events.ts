import type { SportEvent, SportEventSummary } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { listSnapshots } from './trading.repo.js';

/** An event's name from its fixture template and competitors (`{$competitor1} vs {$competitor2}`). */
export function eventName(e: SportEvent): string {
  const names = Object.values(e.fixture.competitors).map((c) => c.name);
  return e.fixture.template.replace(/\{\$competitor(\d+)\}/g, (_m, n) => names[Number(n) - 1] ?? '?');
}

/**
 * The live book for operators (`GET /trading/sport-events`): the sport events most recently changed first, each
 * with its fixture status, bet stop, market counts and version.
 *
 * @throws DomainError validation_error naming `querystring.limit` or `querystring.status`.
 */
export async function listSportEvents(
  db: Executor,
  query: { limit?: string; status?: string },
): Promise<{ items: SportEventSummary[] }> {
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw validationError('querystring.limit', 'must be 1..1000');
  const status = query.status === undefined ? undefined : Number(query.status);
  if (status !== undefined && (!Number.isInteger(status) || status < 0 || status > 9)) {
    throw validationError('querystring.status', 'must be a fixture status code');
  }
  const rows = await listSnapshots(db, { limit, ...(status !== undefined ? { status } : {}) });
  return {
    items: rows.map((r) => {
      const e = JSON.parse(r.snapshot) as SportEvent;
      const markets = Object.values(e.markets);
      return {
        id: e.id,
        name: eventName(e),
        sport_id: e.fixture.sport_id,
        tournament: e.fixture.tournament.name,
        start_time: e.fixture.start_time,
        status: e.fixture.status,
        bet_stop: e.bet_stop,
        markets: markets.length,
        active_markets: markets.filter((m) => m.status === 0).length,
        version: r.version.toString(),
      };
    }),
  };
}
