/**
 * `--url` on the `bookie` commands that read or change data: instead of opening the database, the command asks a
 * running Bookie server through its admin API (the same use cases), with the admin token. This is how to act while
 * `bookie start` holds an embedded (PGlite) database, which only one process can open.
 *
 * @packageDocumentation
 */
import { ERROR_CODES, type ErrorCode } from '@bookie/core';
import { type Command, Option } from 'commander';

/** The flags {@link remoteOptions} adds. */
export interface RemoteFlags {
  url?: string;
  adminToken?: string;
}

/** Adds `--url` (a running server) and `--admin-token` (default `$BOOKIE_ADMIN_TOKEN`) to a command. */
export function remoteOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--url <url>',
        "act through a running Bookie server's admin API instead of opening the database " +
          '(needed while `bookie start` runs on the embedded database), e.g. http://127.0.0.1:8080',
      ).conflicts(['dbUrl', 'dataDir']),
    )
    .option('--admin-token <token>', 'admin token of that server (default: $BOOKIE_ADMIN_TOKEN)');
}

/** The codes an error answer may carry through to the command (any other becomes internal_error). */
const CODES: ReadonlySet<string> = new Set<ErrorCode>(ERROR_CODES);

/** Options of {@link callAdmin}. */
export interface CallAdminOptions {
  /** JSON body to send. */
  body?: unknown;
  /** Query parameters (undefined values left out). */
  query?: Record<string, string | undefined>;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Return the answer's text instead of parsing JSON (e.g. CSV). */
  text?: boolean;
}

/**
 * Calls `method path` on the server at `flags.url` with the admin token; resolves to the parsed JSON answer.
 *
 * @throws DomainError `validation_error` (`--admin-token`) when no token is given; the server's own DomainError
 *   (code and message) for an error answer; `unavailable` when the server cannot be reached.
 */
export async function callAdmin(
  flags: RemoteFlags,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options: CallAdminOptions = {},
): Promise<unknown> {
  const { DomainError, validationError } = await import('@bookie/core');
  const token = flags.adminToken ?? process.env.BOOKIE_ADMIN_TOKEN;
  if (!token) throw validationError('--admin-token', 'is required with --url (or set BOOKIE_ADMIN_TOKEN)');
  const url = new URL(path, `${(flags.url ?? '').replace(/\/+$/, '')}/`);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    throw new DomainError('unavailable', `cannot reach the Bookie server at ${flags.url} (${cause})`);
  }
  const text = await res.text();
  if (res.status >= 400) {
    let error: { code?: string; message?: string; details?: Record<string, unknown> } | undefined;
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error;
    } catch {}
    const code = (error?.code && CODES.has(error.code) ? error.code : 'internal_error') as ErrorCode;
    throw new DomainError(
      code,
      `${flags.url} answered ${res.status}: ${error?.message ?? text}`,
      error?.details,
    );
  }
  if (options.text) return text;
  return text ? JSON.parse(text) : undefined;
}
