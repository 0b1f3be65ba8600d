import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { statusMentions, wrongStatusMentions } from './status-mentions.js';

const ROOT = new URL('../../../', import.meta.url);
const markdownIn = (dir: string) =>
  readdirSync(new URL(dir, ROOT))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `${dir}${f}`);
/** The repository's own texts: README.md, CONTRIBUTING.md, docs/*.md and the ADRs. */
const DOCS = ['README.md', 'CONTRIBUTING.md', ...markdownIn('docs/'), ...markdownIn('docs/adr/')];
const read = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');

describe('status numbers in the docs agree with the contracts table (status-codes.ts)', () => {
  it('finds no number paired with another status name in README.md, CONTRIBUTING.md, docs/*.md or docs/adr/*.md', () => {
    const wrong = DOCS.flatMap((file) =>
      wrongStatusMentions(read(file)).map((m) => `${file}:${m.line}: "${m.said}" — ${m.expected}`),
    );
    expect(wrong).toEqual([]);
  });

  it('reads the lists the docs give (the check is not vacuous)', () => {
    const said = (file: string) => statusMentions(read(file)).map((m) => `${m.code} ${m.name}`);
    // the odd statuses of callbacks, the bet status numbers and settle_type in the rules
    expect(said('docs/decisions.md')).toEqual(
      expect.arrayContaining([
        '3 half win',
        '4 half loss',
        '5 refunded',
        '7 refunded manually',
        '11 force-declined',
      ]),
    );
    expect(said('docs/decisions.md')).toEqual(expect.arrayContaining(['2 refund', '3 lost']));
    // the results an operator sets, and the foreign selection statuses a partner reports
    expect(said('docs/operator-guide.md')).toEqual(
      expect.arrayContaining(['3 half win', '5 refunded', '6 cancelled']),
    );
    expect(said('docs/partner-guide.md')).toEqual(
      expect.arrayContaining(['4 half loss', '7 refunded manually']),
    );
    expect(DOCS.length).toBeGreaterThan(20);
  });
});

describe('wrongStatusMentions', () => {
  it('refuses the odd statuses numbered refund, half win, half loss', () => {
    const old =
      '- **D4 Odd status in callbacks:** 0 open, 1 win, 2 loss, 3 refund, 4 half win, 5 half loss, 6 cancelled (as in the\n' +
      '  feed), plus 7 refunded manually (factor 1).';
    expect(wrongStatusMentions(old).map((m) => m.said)).toEqual(['3 refund', '4 half win', '5 half loss']);
    expect(wrongStatusMentions(old)[0]).toMatchObject({
      line: 1,
      expected: 'odd status 3 is half win; refund is odd status 5',
    });
  });

  it('reads table rows under their heading, and "name (n)"', () => {
    const table = '### Odd status\n\n| Code | Name |\n|---|---|\n| 3 | half win |\n| 5 | half loss |\n';
    expect(wrongStatusMentions(table)).toEqual([
      {
        line: 6,
        said: '5 half loss',
        code: 5,
        name: 'half loss',
        expected: expect.stringContaining('odd status 4'),
      },
    ]);
    expect(wrongStatusMentions('a market status: market cancelled (4), fixture cancelled (5)')).toEqual([]);
    expect(wrongStatusMentions('the odd status: market cancelled (5)').map((m) => m.said)).toEqual([
      'market cancelled (5)',
    ]);
    expect(wrongStatusMentions('results: win + refund → half win (4)').map((m) => m.said)).toEqual([
      'half win (4)',
    ]);
  });

  it('takes the family the text names: a bet status 6 is refunded manually, an odd status 6 is cancelled', () => {
    expect(wrongStatusMentions('bet status 6 refunded manually; settle_type 2 refund')).toEqual([]);
    expect(wrongStatusMentions('odd status: 6 refunded manually').map((m) => m.expected)).toEqual([
      'odd status 6 is cancelled; refunded manually is odd status 7',
    ]);
  });

  it('leaves numbers that are no status alone', () => {
    expect(statusMentions('Each match has 6 live bets by default; 95.3 accepted/s; 33–98 accepted.')).toEqual(
      [],
    );
    expect(
      statusMentions('Fixture status moves among 3–6 (closed, then cancelled); D4 win; spec 01: win'),
    ).toEqual([]);
  });
});
