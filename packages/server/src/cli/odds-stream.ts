import { formatMoney, parseDecimal, validationError } from '@bookie/core';
import { printJson } from './io.js';
import { type ReplayPlatformOptions, withPlatform } from './replay-platform.js';

/** Options of `bookie replay --odds-stream`. */
export interface OddsStreamFlags {
  json?: boolean | undefined;
  back?: string | undefined;
  stake?: string | undefined;
}

/**
 * `bookie replay --odds-stream <file.jsonl>`: a Betfair Exchange stream recording drives one market through the
 * whole platform, a bet placed before the start is quoted for cash-out after every price change, and the report
 * shows the price path, the quotes and the settlement by Betfair's result (docs/adr/0027-betfair-odds-stream.md).
 */
export async function replayOddsStream(
  file: string,
  flags: OddsStreamFlags,
  platform: ReplayPlatformOptions,
): Promise<void> {
  const { formatOddsStreamReport, readMcmFile, runOddsStream } = await import('@bookie/simulator');
  if (flags.back !== undefined && !/^[0-9]+$/.test(flags.back))
    throw validationError('--back', `expected a Betfair selection id, got "${flags.back}"`);
  const stake =
    flags.stake === undefined
      ? undefined
      : formatMoney(parseDecimal(flags.stake, { field: '--stake', maxDecimals: 6, allowZero: false }));
  let messages: Awaited<ReturnType<typeof readMcmFile>>;
  try {
    messages = await readMcmFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw validationError('--odds-stream', `no such file: ${file}`);
    throw err;
  }
  const report = await withPlatform(platform, (p, signal) =>
    runOddsStream(p, {
      messages,
      signal,
      ...(flags.back ? { back: flags.back } : {}),
      ...(stake ? { stake } : {}),
    }),
  );
  if (flags.json) printJson(report);
  else process.stdout.write(`${formatOddsStreamReport(report)}\n`);
}
