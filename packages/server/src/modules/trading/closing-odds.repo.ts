import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** Records the closing price of every odd of a sport event (D40), from its last snapshot before it started. */
export async function recordClosingOdds(
  tx: Executor,
  event: { id: string; markets: Record<string, { odds: Record<string, { value: string }> }> },
): Promise<void> {
  const rows = Object.entries(event.markets).flatMap(([marketId, m]) =>
    Object.entries(m.odds).map(([oddId, o]) => ({
      sport_event_id: event.id,
      market_id: marketId,
      odd_id: oddId,
      odds: o.value,
    })),
  );
  if (rows.length === 0) return;
  await tx
    .insertInto('risk_closing_odds')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['sport_event_id', 'market_id', 'odd_id'])
        .doUpdateSet((eb) => ({ odds: eb.ref('excluded.odds') })),
    )
    .execute();
}

/** The closing prices of the given odds (D40), keyed `sport_event_id/market_id/odd_id` as JSON. */
export async function readClosingOdds(
  db: Executor,
  keys: ReadonlyArray<{ sport_event_id: string; market_id: string; odd_id: string }>,
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const res = await sql<{ sport_event_id: string; market_id: string; odd_id: string; odds: string }>`
    select c.sport_event_id, c.market_id, c.odd_id, c.odds::text as odds from risk_closing_odds c
    join unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                ${keys.map((k) => k.odd_id)}::text[]) as k(sport_event_id, market_id, odd_id)
      on c.sport_event_id = k.sport_event_id and c.market_id = k.market_id and c.odd_id = k.odd_id`.execute(
    db,
  );
  return new Map(res.rows.map((r) => [JSON.stringify([r.sport_event_id, r.market_id, r.odd_id]), r.odds]));
}
