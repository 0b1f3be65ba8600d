/**
 * Vitest's global setup: brings the compiled build (`npm run build`, `tsc -b`, incremental: a fraction of a second
 * when nothing changed) up to date before the tests, so the `bookie` and `bookie-wallet` processes the tests start
 * run the compiled JavaScript of the sources under test. When the build fails (a change that does not compile yet),
 * it says so in one line and the tests start those processes from the sources under tsx instead (`@bookie/process`
 * entryArgs never runs a stale build). The tests themselves always run the sources.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) {
    const first = `${tsc.stdout}${tsc.stderr}`.split('\n').find((l) => l.trim()) ?? `exit ${tsc.status}`;
    process.stderr.write(`build before tests failed (${first}); processes run from the sources under tsx\n`);
  }
}
