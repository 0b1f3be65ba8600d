/**
 * What the SDK accepts from a callback sender (docs/decisions.md "The SDK accepts what real platforms send"): Bookie
 * itself writes the exact contract of `@bookie/contracts` (amounts with 6 decimals, every optional id present as
 * `""`, closed bodies), but other implementations of the same contract send looser bodies, and a partner that built
 * against them must not be refused. By default the callback handler checks bodies against the lenient schemas below
 * and fills what is missing; `strict: true` restores the exact contract for a partner's own conformance tests.
 *
 * Accepted besides the exact contract:
 * - `bet_freebet_id`, `bet_insurance_id`, `bet_boost_id`, `bet_player_id` absent or `""` (filled with `""`);
 * - `total_odds_value`, `base_odds_value` absent (left absent); `bet_bet_builder_odds`, `bet_system_sizes`,
 *   `competitors` and, on settle, `restrictions` absent (filled with `[]`);
 * - odd `meta` with only some keys; `bet_odds` empty when the bet is made of bet builders only;
 * - amounts and odds with 0–12 decimals (`"10"`, `"1.85"`, `"10.500000000000"`), kept as sent: parse them exactly
 *   (`parseMoney(x, field, { maxDecimals: 12 })` of `@bookie/core`);
 * - competitor `type` 0–3 (0 unknown, 1 person, 2 team, 3 other);
 * - date-times with up to 9 fractional digits and any offset (`Z`, `+02:00`, `+0200`, `+02`);
 * - unknown fields, kept in the body the handler gets.
 *
 * @packageDocumentation
 */
import {
  type CallbackBodies,
  type CallbackBodyIssue,
  type CallbackName,
  callbackBodyIssues,
  RequestId,
} from '@bookie/contracts';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';

/** Pattern of a lenient decimal: a non-negative decimal string with 0–12 decimals (`"10"`, `"1.85"`). */
export const LENIENT_DECIMAL_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]{1,12})?$';

/** Pattern of a lenient date-time: ISO 8601 with seconds, up to 9 fractional digits and any offset form. */
export const LENIENT_DATE_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)$';

const Decimal = Type.String({ pattern: LENIENT_DECIMAL_PATTERN });
const DateTime = Type.String({ pattern: LENIENT_DATE_TIME_PATTERN });
const Id = Type.String({ minLength: 1 });
/** An id that may be absent or `""`; filled with `""` when absent. */
const MaybeId = Type.Optional(Type.String({ default: '' }));
const open = { additionalProperties: true } as const;

const Competitor = Type.Object({ id: Type.String(), type: Type.Integer({ minimum: 0, maximum: 3 }) }, open);

const Meta = Type.Partial(
  Type.Object(
    {
      sport_event_info_provider_id: Type.String(),
      sport_event_info_sport_id: Type.String(),
      sport_event_info_tournament_id: Type.String(),
      sport_event_info_market_type: Type.String(),
      sport_event_info_state: Type.String(),
      sport_event_info_start_time: DateTime,
      sport_event_info_competitors: Type.Array(Competitor),
    },
    open,
  ),
);

const Odd = Type.Object(
  {
    odd_id: Type.String(),
    odd_ratio: Decimal,
    odd_status: Type.Integer({ minimum: 0, maximum: 7 }),
    match_id: Type.String(),
    match_status: Type.Optional(Type.Integer({ minimum: 0 })),
    market_id: Type.String(),
    odd_updated_at: Type.Optional(DateTime),
    status_reason: Type.Optional(Type.String()),
    meta: Type.Optional(Meta),
  },
  open,
);

/**
 * A bet builder of `bet_bet_builder_odds` (docs/decisions.md D60): its sport event, combined odds and result, and its
 * inner odds in the odd shape; other fields kept.
 */
const BuilderOdd = Type.Object(
  {
    bet_builder_index: Type.Optional(Type.Integer({ minimum: 0 })),
    match_id: Type.String(),
    odd_ratio: Decimal,
    odd_status: Type.Integer({ minimum: 0, maximum: 7 }),
    status_reason: Type.Optional(Type.String()),
    probability: Type.Optional(Decimal),
    inner_odds: Type.Array(Odd),
  },
  open,
);

const Restriction = Type.Object({ type: Type.String(), context: Type.Optional(Type.Unknown()) }, open);
const emptyArray = <T extends TSchema>(item: T) => Type.Optional(Type.Array(item, { default: [] }));
const BetType = Type.Integer({ minimum: 1, maximum: 3 });

const placeFields = {
  request_id: RequestId,
  bet_id: Id,
  bet_player_id: MaybeId,
  bet_type: BetType,
  bet_stake: Decimal,
  bet_freebet_id: MaybeId,
  bet_insurance_id: MaybeId,
  bet_boost_id: MaybeId,
  total_odds_value: Type.Optional(Decimal),
  base_odds_value: Type.Optional(Decimal),
  // empty for a bet of builders only: they are in bet_bet_builder_odds
  bet_odds: Type.Array(Odd),
  bet_bet_builder_odds: emptyArray(BuilderOdd),
  bet_system_sizes: emptyArray(Type.Integer({ minimum: 1 })),
  bet_created_at: Type.Optional(DateTime),
  competitors: emptyArray(Competitor),
};

/** The lenient body schema of each callback (see the module comment); `heartbeat` takes any body. */
export const LENIENT_CALLBACK_BODIES = {
  place: Type.Object(placeFields, open),
  accept: Type.Object(placeFields, open),
  decline: Type.Object(
    { request_id: RequestId, bet_id: Id, bet_player_id: MaybeId, restrictions: emptyArray(Restriction) },
    open,
  ),
  settle: Type.Object(
    {
      request_id: RequestId,
      bet_id: Id,
      bet_player_id: MaybeId,
      bet_boost_id: MaybeId,
      total_odds_value: Type.Optional(Decimal),
      base_odds_value: Type.Optional(Decimal),
      bet_odds: emptyArray(Odd),
      bet_bet_builder_odds: emptyArray(BuilderOdd),
      settle_amount: Decimal,
      settle_type: Type.Integer({ minimum: 1, maximum: 3 }),
      restrictions: emptyArray(Restriction),
    },
    open,
  ),
  unsettle: Type.Object(
    { request_id: RequestId, bet_id: Id, bet_player_id: MaybeId, unsettle_amount: Decimal },
    open,
  ),
  insuranceAccepted: Type.Object(
    { request_id: RequestId, bet_id: Id, bet_insurance_id: Id, refund_amount: Decimal },
    open,
  ),
  insuranceDeclined: Type.Object({ request_id: RequestId, bet_id: Id, bet_insurance_id: Id }, open),
  insuranceCancel: Type.Object(
    { request_id: RequestId, bet_id: Id, bet_insurance_id: Id, refund_amount: Decimal },
    open,
  ),
  heartbeat: Type.Unknown(),
  cashOutAccepted: Type.Object(
    { request_id: RequestId, bet_id: Id, cash_out_order_id: Id, amount: Decimal, refund_amount: Decimal },
    open,
  ),
  cashOutDeclined: Type.Object(
    { request_id: RequestId, bet_id: Id, cash_out_order_ids: emptyArray(Id) },
    open,
  ),
} as const satisfies Record<CallbackName, TSchema>;

/**
 * The body a handler gets, per callback: the exact contract's type, except that `total_odds_value` and
 * `base_odds_value` may be absent and amounts may carry 0–12 decimals (still decimal strings). Absent ids are `""`,
 * absent arrays `[]`; unknown fields are kept.
 */
export type ReceivedCallbackBodies = {
  [K in CallbackName]: K extends 'place' | 'accept' | 'settle'
    ? Omit<CallbackBodies[K], 'total_odds_value' | 'base_odds_value'> & {
        total_odds_value?: string;
        base_odds_value?: string;
      }
    : CallbackBodies[K];
};

/** The lenient static type of callback `K`'s body as checked (before filling). */
export type LenientCallbackBody<K extends CallbackName> = Static<(typeof LENIENT_CALLBACK_BODIES)[K]>;

const compiled = new Map<CallbackName, TypeCheck<TSchema>>();

function checker(name: CallbackName): TypeCheck<TSchema> {
  let c = compiled.get(name);
  if (!c) {
    c = TypeCompiler.Compile(LENIENT_CALLBACK_BODIES[name] as TSchema);
    compiled.set(name, c);
  }
  return c;
}

function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

/** The result of {@link readCallbackBody}: the body to hand on, or the first violations. */
export type ReadCallbackBody<K extends CallbackName> =
  | { ok: true; body: ReceivedCallbackBodies[K] }
  | { ok: false; issues: CallbackBodyIssue[] };

/**
 * Checks a parsed callback body and returns it ready for a handler. Lenient (default): checked against
 * {@link LENIENT_CALLBACK_BODIES}, absent optional ids filled with `""` and absent arrays with `[]`, unknown fields
 * kept; the body returned is a copy, `value` is left as it is, unless `inPlace` hands `value` over. Strict: checked
 * against the exact contract of `@bookie/contracts` (6-decimal amounts, every field present, closed bodies) and
 * returned unchanged.
 *
 * @param limit - the most issues returned (default 10).
 * @param inPlace - `value` belongs to the caller alone (e.g. it has just parsed it): fill it in place and return it
 *   rather than a filled copy (default false). The callback handler reads the bodies it parses this way.
 */
export function readCallbackBody<K extends CallbackName>(
  name: K,
  value: unknown,
  options: { strict?: boolean; limit?: number; inPlace?: boolean } = {},
): ReadCallbackBody<K> {
  const limit = options.limit ?? 10;
  if (options.strict) {
    const issues = callbackBodyIssues(name, value, limit);
    return issues.length > 0 ? { ok: false, issues } : { ok: true, body: value as ReceivedCallbackBodies[K] };
  }
  const c = checker(name);
  if (!c.Check(value)) {
    const issues: CallbackBodyIssue[] = [];
    for (const e of c.Errors(value)) {
      issues.push({ field: fieldOf(e.path), message: e.message });
      if (issues.length >= limit) break;
    }
    return { ok: false, issues };
  }
  const owned = options.inPlace ? value : structuredClone(value);
  return { ok: true, body: filler(name)(owned) as ReceivedCallbackBodies[K] };
}

/** True when `schema` or any schema inside it declares a `default`. */
function declaresDefault(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  if (Object.hasOwn(schema, 'default')) return true;
  return Object.values(schema).some(declaresDefault);
}

const fillers = new Map<CallbackName, (body: unknown) => unknown>();

/**
 * The default filling of a checked body of `name`, done in place: when only the body's own fields declare defaults
 * (as every lenient body does), a loop over them that sets each absent one; otherwise TypeBox's `Value.Default`, which
 * walks the whole value.
 */
function filler(name: CallbackName): (body: unknown) => unknown {
  let fill = fillers.get(name);
  if (fill) return fill;
  const schema = LENIENT_CALLBACK_BODIES[name] as TSchema;
  const properties: Record<string, TSchema> =
    schema.type === 'object' && typeof schema.properties === 'object' ? schema.properties : {};
  const own = Object.entries(properties).filter(([, p]) => Object.hasOwn(p, 'default'));
  const nested = Object.values(properties).some((p) => {
    const { default: _, ...rest } = p;
    return declaresDefault(rest);
  });
  if (nested || Object.hasOwn(schema, 'default')) {
    fill = (body) => Value.Default(schema, body);
  } else {
    // each filled value is new: an empty array made here, any other object default copied
    const defaults = own.map(([key, p]) => {
      const d = p.default as unknown;
      const make =
        Array.isArray(d) && d.length === 0
          ? () => []
          : typeof d === 'object' && d !== null
            ? () => structuredClone(d)
            : () => d;
      return [key, make] as const;
    });
    fill = (body) => {
      if (typeof body !== 'object' || body === null) return body;
      const b = body as Record<string, unknown>;
      for (const [key, make] of defaults) {
        if (b[key] === undefined) b[key] = make();
      }
      return b;
    };
  }
  fillers.set(name, fill);
  return fill;
}
