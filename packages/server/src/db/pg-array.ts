/** Whether an element's text has a character it escapes with a backslash inside the quotes of an array literal. */
const needsEscape = (text: string): boolean => text.includes('"') || text.includes('\\');
/**
 * A character JSON writes as an escape sequence other than `\"` and `\\` (a control character; a surrogate code unit,
 * which JSON escapes when it stands alone): an array literal would read the sequence's letter, not the character.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const JSON_ESCAPES_OTHERWISE = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * A Postgres array literal of `values` (`{"a","b"}`), to pass as one statement parameter cast to an array type
 * (`$1::text[]`, `::uuid[]`, `::int4[]`, `::numeric[]`, `::timestamptz[]`, `::bool[]`, `::jsonb[]`): what the
 * `pg` driver builds itself from a JavaScript array, but in one `join` instead of two regular-expression replacements
 * and a concatenation per element (the hot statements pass arrays of every bet of a batch). Elements are quoted (a
 * quoted `1.5` is still a number to a numeric array); `null` is SQL NULL; a `Date` is its ISO 8601 text; a boolean
 * `true` or `false`; a quote or backslash in an element is escaped (one pass over that element).
 */
export function pgArray(values: ReadonlyArray<string | number | bigint | boolean | Date | null>): string {
  const n = values.length;
  if (n === 0) return '{}';
  let plain = true;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v instanceof Date || (typeof v === 'string' && needsEscape(v))) {
      plain = false;
      break;
    }
  }
  if (plain) return `{"${values.join('","')}"}`;
  let out = '{';
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) {
      out += 'NULL';
      continue;
    }
    const text = typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : String(v);
    if (!needsEscape(text)) out += `"${text}"`;
    // JSON's quoting is the array literal's (`\"`, `\\`) when it escapes nothing else, and native: a callback body
    // (a JSON text, all quotes) is quoted in one pass
    else if (!JSON_ESCAPES_OTHERWISE.test(text)) out += JSON.stringify(text);
    else out += `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `${out}}`;
}
