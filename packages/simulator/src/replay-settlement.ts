/** After the timeline: waiting for Bookie to settle every bet and deliver this run's callbacks. */
import { sleep } from './pacing.js';
import type { ReplayRun } from './replay-run.js';

/**
 * Waits until settlement reaches `lastVersion`, then (until the same deadline) for the white label's pending callbacks.
 *
 * @throws Error when settlement does not finish within `settleTimeoutMs` (default 180 s).
 */
export async function waitForSettlement(run: ReplayRun, lastVersion: bigint): Promise<void> {
  const { target, options, signal, progress, report } = run;
  const { admin } = run.clients;
  progress.phase = 'settling';
  report();
  const deadline = Date.now() + (options.settleTimeoutMs ?? 180_000);
  for (;;) {
    const status = await admin.settlementStatus();
    if (BigInt(status.processed) >= lastVersion) break;
    if (Date.now() > deadline)
      throw new Error(`settlement did not reach version ${lastVersion} (at ${status.processed})`);
    await sleep(200, signal);
  }
  // only this run's white label: another one (e.g. created in the backoffice, its callback server dead) may keep
  // deliveries pending for ever; what stays pending past the deadline is a problem of the report, not a crash
  for (;;) {
    if ((await admin.pendingCallbacks(1000, target.whiteLabelId)) === 0) break;
    if (Date.now() > deadline) break;
    await sleep(200, signal);
  }
}
