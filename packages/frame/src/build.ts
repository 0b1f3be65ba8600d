import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_DIST, FRAME_FILES, FRAME_ROOT } from './paths.js';

const ENTRIES = [
  // the bootstrap a partner's page loads: a classic script (IIFE), no library, defines window.Bookie
  {
    entry: 'src/bootstrap/bootstrap.ts',
    fileName: 'bootstrap',
    formats: ['iife'] as const,
    name: 'BookieBootstrap',
  },
  // the app the bootstrap imports: an ES module (Preact inside)
  { entry: 'src/app/main.tsx', fileName: 'app', formats: ['es'] as const, name: 'BookieFrame' },
];

function newestSource(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newestSource(p));
    else if (/\.(ts|tsx|css)$/.test(e.name) && !/\.test\.ts$/.test(e.name))
      t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/** True when every built file exists and is newer than every source file of the browser app and the bootstrap. */
export function isFrameBuilt(): boolean {
  const files = FRAME_FILES.map((f) => join(FRAME_DIST, f));
  if (!files.every((f) => existsSync(f))) return false;
  const built = Math.min(...files.map((f) => statSync(f).mtimeMs));
  const src = Math.max(
    newestSource(join(FRAME_ROOT, 'src/app')),
    newestSource(join(FRAME_ROOT, 'src/bootstrap')),
  );
  return built >= src;
}

/**
 * Builds the frame into {@link FRAME_DIST} with Vite (minified, no source maps). It builds into a new directory and
 * then swaps it in, so a server serving the previous build (or a second build running at once) never sees half a
 * build.
 */
export async function buildFrame(): Promise<void> {
  const { build, defaultClientConditions } = await import('vite');
  const out = `${FRAME_DIST}.${process.pid}.${Date.now()}`;
  let first = true;
  for (const e of ENTRIES) {
    await build({
      root: FRAME_ROOT,
      configFile: false,
      logLevel: 'warn',
      // the workspace packages it imports (core, contracts) from their sources, never a stale build of them
      resolve: { conditions: ['bookie-source', ...defaultClientConditions] },
      oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
      build: {
        outDir: out,
        emptyOutDir: first,
        target: 'es2022',
        minify: true,
        sourcemap: false,
        rolldownOptions: { output: { minify: true } },
        lib: {
          entry: join(FRAME_ROOT, e.entry),
          formats: [...e.formats],
          name: e.name,
          fileName: () => `${e.fileName}.js`,
        },
      },
    } as never);
    first = false;
  }
  // swap in; when another build swaps at the same moment, one of the two complete builds stays
  const old = `${out}.old`;
  try {
    renameSync(FRAME_DIST, old);
  } catch {
    // no previous build, or another build moved it away
  }
  try {
    renameSync(out, FRAME_DIST);
  } catch (err) {
    if (!existsSync(join(FRAME_DIST, 'app.js'))) throw err;
  }
  rmSync(out, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
}

/** Builds the frame when it is missing or older than its sources; returns whether it built. */
export async function ensureFrameBuilt(): Promise<boolean> {
  if (isFrameBuilt()) return false;
  await buildFrame();
  return true;
}

// `npm run build -w @bookie/frame`
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  buildFrame().then(
    () => process.stdout.write(`frame built into ${FRAME_DIST}\n`),
    (err) => {
      process.stderr.write(`frame build failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
