/**
 * The bet aggregate has one owner (docs/adr/0038-bet-owner.md): only the bets module's repositories write `bet`
 * and `bet_selection`, and only the risk module's repositories write the exposure tables. Reads the server's
 * sources (tests and migrations aside) and names every write found elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Writes of `tables` through Kysely's builder or in SQL text. */
function writesOf(tables: string): RegExp[] {
  return [
    new RegExp(`\\b(insertInto|updateTable|deleteFrom)\\(\\s*['"\`](${tables})['"\`]`),
    new RegExp(`\\b(update|insert\\s+into|delete\\s+from)\\s+"?(${tables})"?(\\s|$|\\()`, 'i'),
  ];
}

function offenders(tables: string, owner: RegExp): string[] {
  const found: string[] = [];
  for (const file of sources(src)) {
    const rel = relative(src, file).split('\\').join('/');
    if (owner.test(rel)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (writesOf(tables).some((re) => re.test(line))) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('one owner of the bet', () => {
  it('finds the writes it looks for', () => {
    const [builder, text] = writesOf('bet|bet_selection') as [RegExp, RegExp];
    expect(builder.test(".updateTable('bet')")).toBe(true);
    expect(builder.test(".insertInto('bet_selection')")).toBe(true);
    expect(builder.test(".updateTable('bet_boost')")).toBe(false);
    expect(text.test('update bet b set state = v.state')).toBe(true);
    expect(text.test('UPDATE bet_selection s SET odds = v.odds')).toBe(true);
    expect(text.test('update bet_exposure set amount = 0')).toBe(false);
    expect(sources(src).length).toBeGreaterThan(100);
  });

  it('writes bet and bet_selection only in the bets repositories', () => {
    expect(offenders('bet|bet_selection', /^modules\/bets\/[^/]+\.repo\.ts$/)).toEqual([]);
  });

  it('writes the exposure tables only in the risk repositories', () => {
    expect(offenders('bet_exposure|risk_exposure', /^modules\/risk\/[^/]+\.repo\.ts$/)).toEqual([]);
  });
});
