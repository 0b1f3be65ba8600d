import { defaultClientConditions, defineConfig } from 'vite';

/** The backoffice builds to dist/, served by the server at /backoffice/ (git-ignored). */
export default defineConfig({
  base: '/backoffice/',
  root: import.meta.dirname,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  logLevel: 'warn',
  // the workspace packages it imports (core, contracts) from their sources, never a stale build of them
  resolve: { conditions: ['bookie-source', ...defaultClientConditions] },
});
