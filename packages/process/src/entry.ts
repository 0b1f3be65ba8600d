/**
 * Which code a child process runs: a package's compiled JavaScript (`dist/`, built by `npm run build`, which
 * `npm ci` runs) when the build is up to date with the sources, else its TypeScript sources under tsx with the
 * `bookie-source` export condition (so every workspace package it imports is read from its sources too). Tests and
 * the replay start `bookie` and `bookie-wallet` through {@link entryArgs}: fast on a fresh build, never stale.
 *
 * @packageDocumentation
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The export condition under which every workspace package resolves to its TypeScript sources. */
export const SOURCE_CONDITION = 'bookie-source';

/** Set to `1` to run the TypeScript sources under tsx even when the build is fresh. */
export const RUN_SOURCES_ENV = 'BOOKIE_RUN_SOURCES';

function newestSource(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newestSource(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

const checked = new Map<string, boolean>();

/**
 * True when every package in `packagesDir` built by `npm run build` (those with a `tsconfig.build.json`, which names
 * the output directory) has a build newer than each of its source files: the build's `.tsbuildinfo`, written last,
 * is newer than every `src/**\/*.ts(x)` but the tests. Checked once per directory and process.
 */
export function isBuildFresh(packagesDir: string): boolean {
  const known = checked.get(packagesDir);
  if (known !== undefined) return known;
  let fresh = true;
  for (const pkg of readdirSync(packagesDir)) {
    const dir = join(packagesDir, pkg);
    const config = join(dir, 'tsconfig.build.json');
    if (!existsSync(config)) continue;
    const outDir = /"outDir":\s*"([^"]+)"/.exec(readFileSync(config, 'utf8'))?.[1] ?? 'dist';
    const info = join(dir, outDir, '.tsbuildinfo');
    if (!existsSync(info) || newestSource(join(dir, 'src')) > statSync(info).mtimeMs) {
      fresh = false;
      break;
    }
  }
  checked.set(packagesDir, fresh);
  return fresh;
}

/**
 * The node arguments that run entry `entry` (e.g. `main`) of the workspace package in `packageDir`: its compiled
 * `dist/<entry>.js` when the build of every package beside it is fresh ({@link isBuildFresh}) and
 * `BOOKIE_RUN_SOURCES` is not `1`, else
 * `--conditions=bookie-source --import tsx src/<entry>.ts`.
 */
export function entryArgs(packageDir: string, entry = 'main'): string[] {
  const compiled = join(packageDir, 'dist', `${entry}.js`);
  const useBuild = process.env[RUN_SOURCES_ENV] !== '1' && existsSync(compiled);
  if (useBuild && isBuildFresh(dirname(packageDir))) return [compiled];
  return [`--conditions=${SOURCE_CONDITION}`, '--import', 'tsx', join(packageDir, 'src', `${entry}.ts`)];
}
