/**
 * Guards the core's purity (ARCHITECTURE "Packages": no I/O, no clock, no randomness; runs in Node and the browser)
 * and its exactness (DECISIONS D1: never parse money through JS number).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = dirname(fileURLToPath(import.meta.url));
const sources = (readdirSync(dir, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .sort();

const forbidden: [RegExp, string][] = [
  [/from\s+'(?!\.\.?\/)[^']*'/, 'imports outside the package'],
  [/\bimport\(/, 'dynamic import'],
  [/\bDate\b/, 'the clock'],
  [/\bperformance\b/, 'the clock'],
  [/Math\.random|crypto\./, 'randomness'],
  [/\bprocess\.|\bsetTimeout\b|\bsetInterval\b|\bfetch\(/, 'I/O or timers'],
  [/parseFloat|Number\.parseFloat|toFixed\(/, 'floating-point decimals'],
];

describe('core purity', () => {
  it('has sources to check', () => {
    expect(sources).toContain('decimal.ts');
    expect(sources).toContain(join('bet-builder', 'builder.ts'));
  });

  it.each(sources)('%s has no I/O, clock, randomness, float parsing or foreign imports', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [re, what] of forbidden) expect(re.test(text), `${file}: ${what} (${re})`).toBe(false);
  });
});
