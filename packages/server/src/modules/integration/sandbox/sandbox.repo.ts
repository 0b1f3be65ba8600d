import type { Executor } from '../../../db/transaction.js';

/** The only SQL of the sandbox helpers. */

/** Makes a session of `whiteLabelId` expire at `at` (its end, if any, is kept); false when it has no such token. */
export async function expireSessionAt(
  db: Executor,
  whiteLabelId: string,
  tokenHash: string,
  at: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('session_token')
    .set({ expires_at: at })
    .where('white_label_id', '=', whiteLabelId)
    .where('token_hash', '=', tokenHash)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
