import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The accept transaction's first risk step in one round trip (docs/adr/0018-risk-engine.md): take the exposure lock,
 * then read the exposure of a white label's outcomes. A volatile PL/pgSQL function reads with a snapshot taken after
 * the lock is granted (READ COMMITTED), so it sees every exposure change committed before, as the two statements did.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE FUNCTION risk_locked_exposure(wl text, events text[], markets text[], odds text[], phases text[])
       RETURNS TABLE (sport_event_id text, market_id text, odd_id text, phase text, amount text)
       LANGUAGE plpgsql VOLATILE AS $$
     BEGIN
       PERFORM pg_advisory_xact_lock(hashtext('risk_exposure')::bigint);
       RETURN QUERY
         SELECT r.sport_event_id, r.market_id, r.odd_id, r.phase, r.amount::text
           FROM risk_exposure r
           JOIN unnest(events, markets, odds, phases) AS k(sport_event_id, market_id, odd_id, phase)
             ON r.sport_event_id = k.sport_event_id AND r.market_id = k.market_id AND r.odd_id = k.odd_id
            AND r.phase = k.phase
          WHERE r.white_label_id = wl;
     END $$`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP FUNCTION risk_locked_exposure(text, text[], text[], text[], text[])']);
}
