/**
 * Finds the places where a text (a Markdown document, an API description, CLI help) pairs a status number with a
 * status name — `3 half win`, `fixture cancelled (5)`, `| 4 | half loss |`, "→ 1 (win)" — and checks each pair
 * against the table of {@link STATUS_FAMILIES}. Texts that cannot import the table (the docs) are held to it by a
 * test through {@link wrongStatusMentions}.
 *
 * @packageDocumentation
 */
import { STATUS_FAMILIES, type StatusFamily } from './status-codes.js';

/**
 * Other words the texts use for a code, by family title and code (the table's own name always counts): `0 open` for
 * an odd not resulted, `refund` for odd status 5, the spec's `force_decline` for bet status 11.
 */
const ALIASES: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  'odd status': { 0: ['open'], 5: ['refund'], 6: ['canceled'] },
  'bet status': {
    7: ['cashed_out'],
    10: ['place_error'],
    11: ['force declined', 'force_decline', 'force_declined', 'force-decline'],
  },
  'fixture status': { 5: ['canceled'] },
  'market status': { 4: ['canceled'] },
};

/** Words in a unit of text that say which family its numbers belong to. */
const CONTEXT: Readonly<Record<string, RegExp>> = {
  'odd status': /\bodd[ _]status|\bselection status|\bleg status/i,
  'bet status': /\bbet status|\bstatus\.code|\bstatus of a bet|"status" of a bet/i,
  'fixture status': /\bfixture status|\bmatch_status/i,
  'market status': /\bmarket status/i,
  settle_type: /\bsettle[_ ]type/i,
};

function vocabulary(family: StatusFamily): Map<string, number> {
  const words = new Map<string, number>();
  for (const c of family.codes) words.set(c.name, c.code);
  for (const [code, aliases] of Object.entries(ALIASES[family.title] ?? {}))
    for (const a of aliases) words.set(a, Number(code));
  return words;
}

const VOCABULARY = new Map(STATUS_FAMILIES.map((f) => [f, vocabulary(f)]));
const WORDS = [...new Set([...VOCABULARY.values()].flatMap((v) => [...v.keys()]))].sort(
  (a, b) => b.length - a.length,
);
const NAME = WORDS.map((w) => w.replace(/[.*+?^${}()|[\]-]/g, '\\$&').replace(/ /g, '\\s+')).join('|');
// `3 half win`, `3: half win`, `3 = half win`, `1 (win)`; the number stands alone (not `D4`, `95.3`, `1X2`, the
// end of a range `3–6`)
const NUMBER_THEN_NAME = new RegExp(
  `(?<![\\w.,/–-])(0|[1-9]\\d?)(?![\\w.,]\\d)\\s*(?:[=:→–—-]\\s*)?\\(?\\s*(${NAME})(?![\\w-])`,
  'gi',
);
// `half win (3)`, `fixture cancelled (5)` (the word before the name, when it names a family, says which), `place
// error (10)`
const NAME_THEN_NUMBER = new RegExp(
  `(?:\\b(fixture|market|odd|selection|leg|bet)\\s+)?(?<![\\w-])(${NAME})\\s*\\((0|[1-9]\\d?)\\)`,
  'gi',
);
const QUALIFIED: Readonly<Record<string, string>> = {
  fixture: 'fixture status',
  market: 'market status',
  odd: 'odd status',
  selection: 'odd status',
  leg: 'odd status',
  bet: 'bet status',
};
// a unit of text that speaks of none of these lists no status codes (`6 live bets`, `33–98 accepted` per second)
const ABOUT_STATUSES = /status|settle[_ ]type|\bresults?\b/i;

/** One pairing of a status number with a status name in a text. */
export interface StatusMention {
  /** 1-based line of the text where the unit (paragraph, list item, table row) holding it starts. */
  line: number;
  /** The pair as written, e.g. `3 refund`. */
  said: string;
  /** The number. */
  code: number;
  /** The name, lower case, e.g. `refund`. */
  name: string;
  /** When the table disagrees, what it says, e.g. `odd status 3 is half win; refund is odd status 5`. */
  expected?: string;
}

/** A {@link StatusMention} that disagrees with the table. */
export type WrongStatusMention = StatusMention & { expected: string };

interface Unit {
  line: number;
  text: string;
  /** The heading the unit stands under: says what its numbers are when the unit itself does not. */
  heading: string;
}

/** Markdown to units: paragraphs and list items (continuation lines joined), each table row with its header. */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let current: Unit | undefined;
  let tableHeader: string | undefined;
  let heading = '';
  const flush = () => {
    if (current) units.push(current);
    current = undefined;
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (/^\s*$/.test(raw)) {
      flush();
      tableHeader = undefined;
      return;
    }
    if (/^\s{0,3}#/.test(raw)) {
      flush();
      heading = raw.replace(/^\s*#+\s*/, '');
      return;
    }
    if (/^\s*\|/.test(raw)) {
      flush();
      if (/^\s*\|[\s|:-]+\|\s*$/.test(raw)) return; // the separator row
      if (tableHeader === undefined) {
        tableHeader = raw;
        return;
      }
      // the cells side by side: `| 3 | half win |` reads `3 half win`; heading and header give the family
      units.push({ line, heading, text: `${tableHeader.replace(/\|/g, ' ')}: ${raw.replace(/\|/g, ' ')}` });
      return;
    }
    if (current && !/^\s*([-*+]|\d+\.)\s/.test(raw)) {
      current.text += ` ${raw}`;
      return;
    }
    flush();
    current = { line, heading, text: raw };
  });
  flush();
  return units;
}

function familiesNamedIn(text: string): Set<StatusFamily> {
  return new Set(STATUS_FAMILIES.filter((f) => CONTEXT[f.title]?.test(text)));
}

function check(code: number, word: string, named: Set<StatusFamily>): string | undefined {
  const having = STATUS_FAMILIES.filter((f) => VOCABULARY.get(f)?.has(word));
  const inContext = having.filter((f) => named.has(f));
  const candidates = inContext.length > 0 ? inContext : having;
  if (candidates.some((f) => VOCABULARY.get(f)?.get(word) === code)) return undefined;
  return candidates
    .map((f) => {
      const is = f.codes.find((c) => c.code === code)?.name;
      return `${f.title} ${code} is ${is ?? 'no code'}; ${word} is ${f.title} ${VOCABULARY.get(f)?.get(word)}`;
    })
    .join(' / ');
}

/**
 * Every place in `text` where a status number is paired with a status name, with `expected` set where the table
 * gives the name another number (in every family that has the name; where the text says which family — "odd
 * status", "bet status", "fixture status", "market status", "settle_type", or `fixture cancelled (5)` — in that
 * family). A name no family has, and a number with no name beside it, are not pairs; a unit that mentions no
 * status, `settle_type` or result lists none. Markdown is read by units: a paragraph, a list item, a table row
 * under its heading and header row.
 */
export function statusMentions(text: string): StatusMention[] {
  const found: StatusMention[] = [];
  for (const unit of unitsOf(text)) {
    const plain = unit.text.replace(/[*`]/g, '').replace(/\s+/g, ' ');
    if (!ABOUT_STATUSES.test(plain) && !ABOUT_STATUSES.test(unit.heading)) continue;
    const inUnit = familiesNamedIn(plain);
    const named = inUnit.size > 0 ? inUnit : familiesNamedIn(unit.heading);
    const pairs: Array<{ said: string; code: number; word: string; named: Set<StatusFamily> }> = [];
    for (const m of plain.matchAll(NUMBER_THEN_NAME))
      pairs.push({ said: m[0], code: Number(m[1]), word: (m[2] as string).toLowerCase(), named });
    for (const m of plain.matchAll(NAME_THEN_NUMBER)) {
      const qualified = m[1]
        ? STATUS_FAMILIES.filter((f) => f.title === QUALIFIED[m[1]?.toLowerCase() ?? ''])
        : [];
      pairs.push({
        said: m[0],
        code: Number(m[3]),
        word: (m[2] as string).toLowerCase(),
        named: qualified.length > 0 ? new Set(qualified) : named,
      });
    }
    for (const p of pairs) {
      const name = p.word.replace(/\s+/g, ' ');
      const expected = check(p.code, name, p.named);
      found.push({
        line: unit.line,
        said: p.said.trim(),
        code: p.code,
        name,
        ...(expected ? { expected } : {}),
      });
    }
  }
  return found;
}

/** The {@link statusMentions} of `text` that disagree with the table; empty when every pair agrees. */
export function wrongStatusMentions(text: string): WrongStatusMention[] {
  return statusMentions(text).filter((m): m is WrongStatusMention => m.expected !== undefined);
}
