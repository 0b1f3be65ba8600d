import { type Command, Option } from 'commander';

/** `--db-url` / `--data-dir`, shared by the commands that open the database. */
export function databaseOptions(cmd: Command): Command {
  return cmd
    .option('--db-url <url>', 'Postgres URL (default: $WALLET_DATABASE_URL; without it, embedded PGlite)')
    .option(
      '--data-dir <dir>',
      'PGlite data directory (default: $WALLET_DATA_DIR or ./.bookie-wallet; "memory")',
    );
}

/** `--url` (a running wallet) and `--admin-token`, for the commands that may go through the HTTP API. */
export function remoteOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--url <url>', 'a running wallet to ask over HTTP instead of opening the database'))
    .option('--admin-token <token>', 'admin token of that wallet (default: $WALLET_ADMIN_TOKEN)');
}

/** Calls a running wallet's API; throws with its error message on a non-2xx answer. */
export async function callWallet(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  adminToken?: string,
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (adminToken) headers.authorization = `Bearer ${adminToken}`;
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (res.status >= 400) {
    throw new Error(`wallet answered ${res.status}: ${parsed?.error?.message ?? text}`);
  }
  return parsed;
}
