import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/**
 * Takes the lease of `role` for `holder` for `ttlMs` when it is free, expired, or already ours (then renewed). A new
 * holder gets the next epoch. Returns the epoch held, or undefined when another holder has it. The database's clock
 * decides expiry, so the processes' clocks need not agree. `force` takes it whoever holds it (the embedded
 * database, where a holder other than this process is a dead one).
 */
export async function acquireLease(
  db: Executor,
  role: string,
  holder: string,
  ttlMs: number,
  force = false,
): Promise<bigint | undefined> {
  await sql`insert into leader_lease (role) values (${role}) on conflict (role) do nothing`.execute(db);
  const r = await sql<{ epoch: bigint }>`
    update leader_lease set
      epoch = case when holder = ${holder} and expires_at > now() then epoch else epoch + 1 end,
      acquired_at = case when holder = ${holder} and expires_at > now() then acquired_at else now() end,
      holder = ${holder},
      expires_at = now() + (${ttlMs}::int8 * interval '1 millisecond')
    where role = ${role} and (${force}::boolean or holder = ${holder} or holder is null or expires_at is null
      or expires_at <= now())
    returning epoch`.execute(db);
  const epoch = r.rows[0]?.epoch;
  return epoch === undefined ? undefined : BigInt(epoch);
}

/** Renews a held lease; false when it is no longer ours at `epoch` (it expired and was taken, or was released). */
export async function renewLease(
  db: Executor,
  role: string,
  holder: string,
  epoch: bigint,
  ttlMs: number,
): Promise<boolean> {
  const r = await sql`
    update leader_lease set expires_at = now() + (${ttlMs}::int8 * interval '1 millisecond')
    where role = ${role} and holder = ${holder} and epoch = ${epoch}::int8 and expires_at > now()`.execute(
    db,
  );
  return (r.numAffectedRows ?? 0n) > 0n;
}

/** Gives a lease up (a clean stop), so that another process takes the role at its next try. */
export async function releaseLease(db: Executor, role: string, holder: string): Promise<void> {
  await sql`update leader_lease set holder = null, expires_at = null
    where role = ${role} and holder = ${holder}`.execute(db);
}

/**
 * Fencing: true when `holder` still holds `role` at `epoch` and the lease has not expired. Run it inside the
 * role's write transaction: the row is share-locked, so the lease cannot change hands before that transaction ends.
 */
export async function holdsLease(
  tx: Executor,
  role: string,
  holder: string,
  epoch: bigint,
): Promise<boolean> {
  const r = await sql`select 1 from leader_lease
    where role = ${role} and holder = ${holder} and epoch = ${epoch}::int8 and expires_at > now()
    for share`.execute(tx);
  return r.rows.length > 0;
}

/** A role's lease as stored. */
export interface LeaseRow {
  role: string;
  holder: string | null;
  epoch: bigint;
  expiresAt: Date | null;
  acquiredAt: Date | null;
}

/** Every role's lease, by role. */
export async function listLeases(db: Executor): Promise<LeaseRow[]> {
  const rows = await db.selectFrom('leader_lease').selectAll().orderBy('role').execute();
  return rows.map((r) => ({
    role: r.role,
    holder: r.holder,
    epoch: BigInt(r.epoch),
    expiresAt: r.expires_at,
    acquiredAt: r.acquired_at,
  }));
}
