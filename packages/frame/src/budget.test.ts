import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ensureFrameBuilt } from './build.js';
import { FRAME_DIST } from './paths.js';

/** Size budgets of the betting frame (gzipped, as a browser downloads it). Speed is measured in the browser test. */
const BUDGETS = { 'bootstrap.js': 5 * 1024, 'app.js': 80 * 1024 } as const;

describe('the frame build fits its budgets', () => {
  it('bootstrap ≤ 5 kB gzipped, app ≤ 80 kB gzipped', async () => {
    await ensureFrameBuilt();
    for (const [file, budget] of Object.entries(BUDGETS)) {
      const gz = gzipSync(readFileSync(join(FRAME_DIST, file)), { level: 9 }).length;
      console.info(`${file}: ${gz} B gzipped (budget ${budget} B)`);
      expect(gz, file).toBeGreaterThan(0);
      expect(gz, file).toBeLessThanOrEqual(budget);
    }
  }, 60_000);
});
