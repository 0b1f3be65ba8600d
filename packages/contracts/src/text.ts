/**
 * The text rule of every Bookie API: a string that any API takes — a JSON body's values and keys, a form body,
 * a query parameter, a path parameter — holds no NUL (U+0000) and no lone UTF-16 surrogate (U+D800–U+DFFF
 * without its pair). Neither is text: Postgres refuses NUL in `text` and `jsonb`, and a lone surrogate cannot be
 * encoded as UTF-8, so such a string would fail later, far from the request (in the settlement consumer, a
 * callback body, the feed). It is refused at the door with 400 `validation_error` naming the field
 * (docs/adr/0016-safety-and-conformance.md).
 */

/** Why a string breaks the text rule. */
export type TextProblem = 'contains a NUL character' | 'contains a lone UTF-16 surrogate';

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The reason `s` breaks the text rule, or undefined when it is text. */
export function textProblem(s: string): TextProblem | undefined {
  if (s.includes('\u0000')) return 'contains a NUL character';
  if (isWellFormed ? !isWellFormed.call(s) : LONE_SURROGATE.test(s))
    return 'contains a lone UTF-16 surrogate';
  return undefined;
}

// the engine's own check for lone surrogates where it has one (Node 20+), the pattern otherwise
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** True when some string of a decoded input, value or key, breaks the text rule (no path is built). */
function hasTextProblem(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (textProblem(v)) return true;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        if (textProblem(k)) return true;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}

/** The first string of a value that breaks the text rule: its field path and the reason. */
export interface TextViolation {
  /** e.g. `body.market_ids[0]`, `query.cursor`, `params.id`; a bad key names the key itself. */
  field: string;
  reason: TextProblem;
}

/**
 * Walks a decoded input (JSON value, form or query object, path parameters) depth first and returns the first
 * string — value or object key — that breaks the text rule, named from `root` (`body`, `query`, `params`).
 * Bounded by the input: every node is visited once.
 */
export function findTextViolation(value: unknown, root: string): TextViolation | undefined {
  // a quick walk first: the paths are built only for an input that breaks the rule
  if (typeof value !== 'object' || value === null ? typeof value !== 'string' : !hasTextProblem(value)) {
    return undefined;
  }
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: root }];
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: unknown; path: string };
    if (typeof v === 'string') {
      const reason = textProblem(v);
      if (reason) return { field: path, reason };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        const reason = textProblem(k);
        const name = reason ? `${path}[${JSON.stringify(k)}]` : `${path}.${k}`;
        if (reason) return { field: name, reason };
        stack.push({ v: child, path: name });
      }
    }
  }
  return undefined;
}

/** The longest id (of a competitor, tournament, market, odd, score, sport…) the trading API takes, in UTF-16 units. */
export const ID_MAX_LENGTH = 128;
/** The longest name or template (competitor and tournament names, fixture, market and odd templates), UTF-16 units. */
export const NAME_MAX_LENGTH = 256;

/**
 * The characters a name, template or id may not hold: C0 controls (U+0000–U+001F, tab and newline included), DEL and
 * C1 controls (U+007F–U+009F), and the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069), which can make a name display as another ("Trojan Source").
 */
export const CONTROL_CHARACTERS =
  '\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';

/** JSON Schema pattern of a string without {@link CONTROL_CHARACTERS}. */
export const PLAIN_TEXT_PATTERN = `^[^${CONTROL_CHARACTERS}]*$`;

const CONTROL_RE = new RegExp(`[${CONTROL_CHARACTERS}]`);

/** True when `s` holds a control or bidirectional formatting character ({@link CONTROL_CHARACTERS}). */
export function hasControlCharacter(s: string): boolean {
  return CONTROL_RE.test(s);
}

/**
 * JSON Schema (TypeBox) options of an id the trading API takes: at most {@link ID_MAX_LENGTH} characters, none of
 * {@link CONTROL_CHARACTERS}. A longer or controlled id answers 400 naming the field.
 */
export function idText(options: { minLength?: number; description?: string } = {}) {
  return { ...options, maxLength: ID_MAX_LENGTH, pattern: PLAIN_TEXT_PATTERN };
}

/** Like {@link idText}, for names and templates: at most {@link NAME_MAX_LENGTH} characters. */
export function nameText(options: { minLength?: number; description?: string } = {}) {
  return { ...options, maxLength: NAME_MAX_LENGTH, pattern: PLAIN_TEXT_PATTERN };
}

/** JSON Schema `propertyNames` of a record keyed by ids: the keys follow {@link idText}. */
export const ID_KEYS = { propertyNames: { maxLength: ID_MAX_LENGTH, pattern: PLAIN_TEXT_PATTERN } };
