import { type Kysely, sql } from 'kysely';

/** Runs DDL statements one by one (PGlite's extended protocol takes one statement per query). */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function execStatements(db: Kysely<any>, statements: string[]): Promise<void> {
  for (const s of statements) await sql.raw(s).execute(db);
}
