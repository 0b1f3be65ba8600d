import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.js';

describe('report CSV (RFC 4180)', () => {
  it('quotes fields with commas, quotes and line breaks; writes null as empty', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(3)).toBe('3');
  });

  it('neutralises a leading formula character, but keeps negative amounts', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField('-cmd')).toBe("'-cmd");
    expect(csvField('-5.000000')).toBe('-5.000000');
  });

  it('writes a header line and CRLF line ends', () => {
    expect(toCsv(['a', 'b'], [{ a: 1, b: 'x' }])).toBe('a,b\r\n1,x\r\n');
  });
});
