import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryArgs, isBuildFresh } from './entry.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A packages directory with one package `app` (sources, a build) and a package without a build config. */
function workspace(built: 'fresh' | 'stale' | 'none'): { packages: string; app: string } {
  const packages = mkdtempSync(join(tmpdir(), 'bookie-entry-'));
  roots.push(packages);
  const app = join(packages, 'app');
  mkdirSync(join(app, 'src', 'cli'), { recursive: true });
  mkdirSync(join(packages, 'docs-only'));
  writeFileSync(join(app, 'tsconfig.build.json'), '{ "compilerOptions": { "outDir": "dist" } }');
  writeFileSync(join(app, 'src', 'main.ts'), 'export {};');
  writeFileSync(join(app, 'src', 'cli', 'help.ts'), 'export {};');
  writeFileSync(join(app, 'src', 'cli', 'help.test.ts'), 'export {};');
  const old = new Date(Date.now() - 60_000);
  const older = new Date(Date.now() - 120_000);
  for (const f of ['main.ts', 'cli/help.ts']) utimesSync(join(app, 'src', f), older, older);
  // a test file changed after the build does not make it stale
  utimesSync(join(app, 'src', 'cli', 'help.test.ts'), new Date(), new Date());
  if (built !== 'none') {
    mkdirSync(join(app, 'dist'));
    writeFileSync(join(app, 'dist', 'main.js'), '');
    writeFileSync(join(app, 'dist', '.tsbuildinfo'), '{}');
    utimesSync(join(app, 'dist', '.tsbuildinfo'), old, old);
  }
  // a source changed after the build
  if (built === 'stale') utimesSync(join(app, 'src', 'cli', 'help.ts'), new Date(), new Date());
  return { packages, app };
}

describe('which code a child process runs', () => {
  it('runs the compiled build when it is newer than every source', () => {
    const { packages, app } = workspace('fresh');
    expect(isBuildFresh(packages)).toBe(true);
    expect(entryArgs(app)).toEqual([join(app, 'dist', 'main.js')]);
  });

  it('runs the sources under tsx, with the source condition, when a source changed after the build', () => {
    const { packages, app } = workspace('stale');
    expect(isBuildFresh(packages)).toBe(false);
    expect(entryArgs(app)).toEqual([
      '--conditions=bookie-source',
      '--import',
      'tsx',
      join(app, 'src', 'main.ts'),
    ]);
  });

  it('runs the sources without a build, or when BOOKIE_RUN_SOURCES=1', () => {
    const none = workspace('none');
    expect(entryArgs(none.app)).toContain(join(none.app, 'src', 'main.ts'));
    const fresh = workspace('fresh');
    process.env.BOOKIE_RUN_SOURCES = '1';
    try {
      expect(entryArgs(fresh.app)).toContain(join(fresh.app, 'src', 'main.ts'));
    } finally {
      delete process.env.BOOKIE_RUN_SOURCES;
    }
  });
});
