import { DomainError } from '@bookie/core';
import { DataDirLockedError } from '@bookie/storage';
import { ConfigError } from '../config.js';

/** Exit codes of the `bookie-wallet` CLI (as `bookie`'s). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Runs a command action: a bad setting or input prints one line and exits 2; anything else exits 1. */
export function action<A extends unknown[]>(
  fn: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      if (err instanceof ConfigError || (err instanceof DomainError && err.code === 'validation_error')) {
        process.stderr.write(`error: ${err.message}\n`);
        process.exit(EXIT.usage);
      }
      if (err instanceof DataDirLockedError) {
        // one line: the wallet's embedded database is held by another process (a running bookie-wallet start)
        process.stderr.write(`error: ${err.message}\n`);
        process.exit(EXIT.failure);
      }
      process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(EXIT.failure);
    }
  };
}

/** Prints a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(
    `${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`,
  );
}
