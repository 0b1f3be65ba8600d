/**
 * Failpoints for crash tests (crash safety): when the environment variable `BOOKIE_FAILPOINT` names a
 * point, the process kills itself with SIGKILL the first time it reaches it — a real kill -9 at an exact place of
 * the flow. Unset in production, the check is one string comparison.
 *
 * Points: `placement:after-hold-commit`, `placement:after-place-answer`, `placement:after-decision-commit`,
 * `dispatcher:after-answer`, `settlement:after-commit`.
 */
const armed = process.env.BOOKIE_FAILPOINT;

/** Kills the process with SIGKILL if `name` is the armed failpoint. */
export function failpoint(name: string): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
