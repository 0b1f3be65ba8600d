#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (`npm ci` builds it; after changing the sources, `npm run build`).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/main.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write(
    'error: bookie is not built (no dist/main.js): run `npm run build` at the repository root, or run the sources ' +
      'with `node --conditions=bookie-source --import tsx packages/server/src/main.ts`\n',
  );
  process.exit(2);
}
await import(compiled.href);
