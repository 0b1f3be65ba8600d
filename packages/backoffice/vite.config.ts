import { defineConfig } from 'vite';

/** The backoffice builds to dist/, served by the server at /backoffice/ (git-ignored). */
export default defineConfig({
  base: '/backoffice/',
  root: import.meta.dirname,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  logLevel: 'warn',
});
