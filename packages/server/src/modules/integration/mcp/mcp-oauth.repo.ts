import type { Insertable, Selectable } from 'kysely';
import type { McpAuthorizationCodeTable, McpClientTable, McpRefreshTokenTable } from '../../../db/schema.js';
import type { Executor } from '../../../db/transaction.js';

/** The only SQL of MCP authorization: registered clients, authorization codes and refresh tokens. */

export type McpClientRow = Selectable<McpClientTable>;

export async function insertMcpClient(db: Executor, row: Insertable<McpClientTable>): Promise<void> {
  await db.insertInto('mcp_client').values(row).execute();
}

export async function findMcpClient(db: Executor, clientId: string): Promise<McpClientRow | undefined> {
  return db.selectFrom('mcp_client').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function insertAuthorizationCode(
  db: Executor,
  row: Insertable<McpAuthorizationCodeTable>,
): Promise<void> {
  await db.insertInto('mcp_authorization_code').values(row).execute();
}

/** Marks a code used and returns it, or undefined when it is unknown or was used already (single use). */
export async function useAuthorizationCode(
  db: Executor,
  codeHash: string,
  at: Date,
): Promise<Selectable<McpAuthorizationCodeTable> | undefined> {
  return db
    .updateTable('mcp_authorization_code')
    .set({ used_at: at })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function insertRefreshToken(db: Executor, row: Insertable<McpRefreshTokenTable>): Promise<void> {
  await db.insertInto('mcp_refresh_token').values(row).execute();
}

/** Marks a refresh token used (rotation) and returns it, or undefined when unknown or used already. */
export async function useRefreshToken(
  db: Executor,
  tokenHash: string,
  at: Date,
): Promise<Selectable<McpRefreshTokenTable> | undefined> {
  return db
    .updateTable('mcp_refresh_token')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Whether a credential still exists unrevoked, with its white label. */
export async function findActiveCredential(
  db: Executor,
  credentialId: string,
): Promise<{ id: string; white_label_id: string } | undefined> {
  return db
    .selectFrom('oauth_credential')
    .select(['id', 'white_label_id'])
    .where('id', '=', credentialId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}
