import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** Tests run the TypeScript sources of every workspace package (their `bookie-source` export), never `dist/`. */
const conditions = ['bookie-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['bookie-source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'bench/**/*.test.ts'],
    // The full-season replays (pre-match, and in play) pin the embedded PGlite whatever DATABASE_URL says (they
    // measure the single-process default); the Postgres pass of CI would run the very same tests a second time, so
    // that pass leaves them out.
    exclude: [
      '**/node_modules/**',
      // the betting frame's browser test runs Bookie on its own in-memory PGlite too (one pass is enough)
      ...(process.env.DATABASE_URL
        ? [
            'packages/simulator/src/replay.e2e.test.ts',
            'packages/server/src/cli/replay-in-play.e2e.test.ts',
            'packages/server/src/modules/frame/frame.browser.e2e.test.ts',
            'packages/server/src/modules/frame/cash-out.browser.e2e.test.ts',
            'packages/server/src/modules/frame/vendor-host.browser.e2e.test.ts',
            // a fresh clone runs on its own in-memory PGlite (one pass is enough)
            'packages/server/src/cli/fresh-clone.e2e.test.ts',
          ]
        : []),
    ],
    reporters: ['default', './tools/summary-reporter.ts'],
    // the processes tests start (bookie, bookie-wallet) run the compiled build, brought up to date here first
    globalSetup: ['./tools/build-before-tests.ts'],
    // bounds that only catch a hang: a process started under load takes long (startBookie itself waits up to 90 s)
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits on a condition: vitest's default 1 s is shorter than a browser's round trip on a loaded runner
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // most test time is spent waiting on real processes and databases, not on CPU: run 3 files at once on 2 cores
    maxWorkers: 3,
  },
});
