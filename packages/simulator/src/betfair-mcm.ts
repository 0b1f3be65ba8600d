/**
 * Betfair Exchange stream recordings read losslessly (docs/adr/0027-betfair-odds-stream.md): one `mcm` market change
 * message per line; prices and sizes keep the text Betfair wrote (`"1.01"`, `"4.10"`, `"1000"`), taken from the JSON
 * source with jsonc-parser's syntax tree; `JSON.parse` would turn them into binary floats first.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseFeedOddValue, validationError } from '@bookie/core';
import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';

/** A price and a size as Betfair wrote them (decimal strings, never floats). */
export type PriceSize = readonly [price: string, size: string];

/** A runner of a market definition. */
export interface McmRunnerDefinition {
  /** Selection id (the number's source text). */
  id: string;
  /** `ACTIVE`, `WINNER`, `LOSER`, `REMOVED`, `PLACED` or `HIDDEN`. */
  status: string;
  /** Display order (1 first); 0 when absent. */
  sortPriority: number;
  name?: string;
}

/** A market definition (sent in full whenever it changes). */
export interface McmMarketDefinition {
  /** `INACTIVE`, `OPEN`, `SUSPENDED` or `CLOSED`. */
  status: string;
  inPlay: boolean;
  eventTypeId?: string;
  eventId?: string;
  marketType?: string;
  /** Scheduled start, ISO 8601. */
  marketTime?: string;
  runners: McmRunnerDefinition[];
}

/** One runner's changes in a message. */
export interface McmRunnerChange {
  id: string;
  /** Last traded price. */
  ltp?: string;
  /** Available to back: full-depth deltas (size "0" removes the price). */
  atb?: PriceSize[];
  /** Best available to back by level: `[level, price, size]` deltas. */
  batb?: (readonly [level: string, price: string, size: string])[];
}

/** One market's changes in a message. */
export interface McmMarketChange {
  id: string;
  /** True when this change is a full image (the runners' ladders are replaced, not patched). */
  img: boolean;
  definition?: McmMarketDefinition;
  runners: McmRunnerChange[];
}

/** One `mcm` message. */
export interface McmMessage {
  /** Line number in the file (1-based). */
  line: number;
  /** Publish time, unix ms. */
  pt: number;
  markets: McmMarketChange[];
}

const PRICE = /^[0-9]+(\.[0-9]+)?$/;

/** A JSON reader over jsonc-parser's syntax tree that names the field of any problem. */
class Reader {
  constructor(
    private readonly text: string,
    private readonly where: string,
  ) {}

  fail(path: string, reason: string): never {
    throw validationError(`${this.where} ${path}`.trim(), reason);
  }

  prop(node: Node | undefined, key: string): Node | undefined {
    if (node?.type !== 'object') return undefined;
    for (const p of node.children ?? []) {
      if (p.children?.[0]?.value === key) return p.children[1];
    }
    return undefined;
  }

  object(node: Node | undefined, path: string): Node {
    if (node?.type !== 'object') this.fail(path, 'expected an object');
    return node;
  }

  array(node: Node | undefined, path: string): Node[] {
    if (node === undefined) return [];
    if (node.type !== 'array') this.fail(path, 'expected an array');
    return node.children ?? [];
  }

  string(node: Node | undefined, path: string): string {
    if (node?.type !== 'string') this.fail(path, 'expected a string');
    return node.value as string;
  }

  boolean(node: Node | undefined, path: string): boolean {
    if (node?.type !== 'boolean') this.fail(path, 'expected true or false');
    return node.value as boolean;
  }

  /** A number's source text, exactly as written. */
  numberText(node: Node | undefined, path: string): string {
    if (node?.type !== 'number') this.fail(path, 'expected a number');
    return this.text.slice(node.offset, node.offset + node.length);
  }

  /** An id: a string, or a whole number's source text. */
  id(node: Node | undefined, path: string): string {
    if (node?.type === 'string') return node.value as string;
    const t = this.numberText(node, path);
    if (!/^[0-9]+$/.test(t)) this.fail(path, `expected a whole number, got ${t}`);
    return t;
  }

  /** A price as written: decimal odds ≥ 1 in plain notation. */
  price(node: Node | undefined, path: string): string {
    const t = this.numberText(node, path);
    if (!PRICE.test(t)) this.fail(path, `expected a price in plain decimal notation, got ${t}`);
    parseFeedOddValue(t, `${this.where} ${path}`);
    return t;
  }

  /** A size as written: a non-negative decimal in plain notation. */
  size(node: Node | undefined, path: string): string {
    const t = this.numberText(node, path);
    if (!PRICE.test(t)) this.fail(path, `expected a size in plain decimal notation, got ${t}`);
    return t;
  }
}

/**
 * Parses one line of a stream recording. Prices and sizes keep their source text (see the module comment).
 *
 * @param text - the line (one JSON object).
 * @param line - its 1-based line number, named in errors.
 * @returns the message, or undefined for a blank line or a message that is not an `mcm` (heartbeats, status).
 * @throws DomainError `validation_error` naming the line and field: not JSON, a field of the wrong type, a price
 *   below 1 or not in plain decimal notation.
 */
export function parseMcmLine(text: string, line: number): McmMessage | undefined {
  if (text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const r = new Reader(text, `line ${line}`);
  if (errors.length > 0 || !root) {
    const e = errors[0];
    r.fail('', `not valid JSON${e ? ` (${printParseErrorCode(e.error)} at column ${e.offset + 1})` : ''}`);
  }
  r.object(root, '(message)');
  const op = r.prop(root, 'op');
  if (op && r.string(op, 'op') !== 'mcm') return undefined;
  const ptText = r.numberText(r.prop(root, 'pt'), 'pt');
  if (!/^[0-9]+$/.test(ptText)) r.fail('pt', `expected whole milliseconds, got ${ptText}`);
  const markets = r.array(r.prop(root, 'mc'), 'mc').map((mc, i) => {
    const at = `mc[${i}]`;
    r.object(mc, at);
    const defNode = r.prop(mc, 'marketDefinition');
    const imgNode = r.prop(mc, 'img');
    const change: McmMarketChange = {
      id: r.id(r.prop(mc, 'id'), `${at}.id`),
      img: imgNode ? r.boolean(imgNode, `${at}.img`) : false,
      runners: r.array(r.prop(mc, 'rc'), `${at}.rc`).map((rc, j) => runnerChange(r, rc, `${at}.rc[${j}]`)),
    };
    if (defNode) change.definition = marketDefinition(r, defNode, `${at}.marketDefinition`);
    return change;
  });
  return { line, pt: Number(ptText), markets };
}

function runnerChange(r: Reader, rc: Node, at: string): McmRunnerChange {
  r.object(rc, at);
  const out: McmRunnerChange = { id: r.id(r.prop(rc, 'id'), `${at}.id`) };
  const ltp = r.prop(rc, 'ltp');
  if (ltp) out.ltp = r.price(ltp, `${at}.ltp`);
  const atb = r.prop(rc, 'atb');
  if (atb) {
    out.atb = r.array(atb, `${at}.atb`).map((ps, k) => {
      const [p, s] = r.array(ps, `${at}.atb[${k}]`);
      return [r.price(p, `${at}.atb[${k}][0]`), r.size(s, `${at}.atb[${k}][1]`)] as const;
    });
  }
  const batb = r.prop(rc, 'batb');
  if (batb) {
    out.batb = r.array(batb, `${at}.batb`).map((lps, k) => {
      const [l, p, s] = r.array(lps, `${at}.batb[${k}]`);
      return [
        r.id(l, `${at}.batb[${k}][0]`),
        r.price(p, `${at}.batb[${k}][1]`),
        r.size(s, `${at}.batb[${k}][2]`),
      ] as const;
    });
  }
  return out;
}

function marketDefinition(r: Reader, d: Node, at: string): McmMarketDefinition {
  r.object(d, at);
  const opt = (key: string) => {
    const n = r.prop(d, key);
    return n
      ? n.type === 'number'
        ? r.numberText(n, `${at}.${key}`)
        : r.string(n, `${at}.${key}`)
      : undefined;
  };
  const out: McmMarketDefinition = {
    status: r.string(r.prop(d, 'status'), `${at}.status`),
    inPlay: r.prop(d, 'inPlay') ? r.boolean(r.prop(d, 'inPlay'), `${at}.inPlay`) : false,
    runners: r.array(r.prop(d, 'runners'), `${at}.runners`).map((rn, k) => {
      const rat = `${at}.runners[${k}]`;
      r.object(rn, rat);
      const sp = r.prop(rn, 'sortPriority');
      const name = r.prop(rn, 'name');
      return {
        id: r.id(r.prop(rn, 'id'), `${rat}.id`),
        status: r.string(r.prop(rn, 'status'), `${rat}.status`),
        sortPriority: sp ? Number(r.id(sp, `${rat}.sortPriority`)) : 0,
        ...(name ? { name: r.string(name, `${rat}.name`) } : {}),
      };
    }),
  };
  for (const key of ['eventTypeId', 'eventId', 'marketType', 'marketTime'] as const) {
    const v = opt(key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/**
 * Reads a recording line by line (Node's readline; a file of any size).
 *
 * @throws DomainError `validation_error` for the first malformed line (see {@link parseMcmLine}); Error ENOENT.
 */
export async function readMcmFile(file: string): Promise<McmMessage[]> {
  const out: McmMessage[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const text of lines) {
    n++;
    const m = parseMcmLine(text, n);
    if (m) out.push(m);
  }
  return out;
}

/** Parses a whole recording held in memory (tests, small excerpts). */
export function parseMcmText(text: string): McmMessage[] {
  return text.split(/\r?\n/).flatMap((l, i) => parseMcmLine(l, i + 1) ?? []);
}
