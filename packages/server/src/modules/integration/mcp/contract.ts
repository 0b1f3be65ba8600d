/**
 * The contract tools of the MCP server (spec 01 "MCP server", DECISIONS D52): `get_contract` in three forms,
 * `list_callback_endpoints` and `build_callback_fixture`. The callback contract comes from `@bookie/contracts`
 * (the schemas Bookie's outbox and the partner SDK use); the platform's operations from Bookie's OpenAPI document.
 *
 * @packageDocumentation
 */
import {
  CALLBACK_BODIES,
  CALLBACK_NAMES,
  CALLBACK_PATHS,
  CallbackErrorBody,
  type CallbackName,
  callbackBodyIssues,
  describeCodes,
  FINAL_PLACE_ERROR_CODES,
  SETTLE_TYPE_CODES,
} from '@bookie/contracts';
import { buildCallbackFixture } from '@bookie/sdk/callbacks/fixtures';
import type { RestOperation } from './rest-operations.js';

/** The specs `get_contract` knows, with who implements them. */
export const SPECS = {
  callbacks: {
    implemented_by: 'partner',
    description:
      "The callbacks Bookie sends to the partner's callback server: hold, capture and release stakes, pay " +
      'settlements, take them back, insurance and cash-out payments, heartbeat. Signed (Standard Webhooks), ' +
      'delivered at least once; the partner answers 204 (any 2xx) or 400 with {"error":{"code","data"?}}.',
  },
  'partner-api': {
    implemented_by: 'platform',
    description:
      'The REST operations of Bookie called by the partner (and the operator): OAuth tokens, player session ' +
      'tokens, white label settings, freebets, insurances, bet boosts, bets, reports, trading and operations.',
  },
  feed: {
    implemented_by: 'platform',
    description:
      'The trading feed, a replication protocol of sport events: a snapshot (/all), then the log of changes ' +
      '(/log, a stream of JSON lines with versions), and re-fetching one sport event.',
  },
  mts: {
    implemented_by: 'platform',
    description:
      'Managed trading service mode: the partner keeps the money and the bet slip, Bookie validates and accepts ' +
      'bets, applies bet delay and settles them.',
  },
  advisory: {
    implemented_by: 'platform',
    description:
      'Advisory mode: Bookie advises on a bet the partner takes itself (accept, accept at other odds, decline).',
  },
} as const;

/** A spec name of {@link SPECS}. */
export type SpecName = keyof typeof SPECS;

/** The spec an OpenAPI operation belongs to: by tag (`feed`, `mts`, `advisory`), else `partner-api`. */
export function specOf(op: RestOperation): Exclude<SpecName, 'callbacks'> {
  const tags = op.tags.map((t) => t.toLowerCase());
  if (tags.some((t) => /\badvisory\b/.test(t))) return 'advisory';
  if (tags.some((t) => /\bmts\b/.test(t))) return 'mts';
  if (tags.includes('feed')) return 'feed';
  return 'partner-api';
}

/** What each callback does and whether the partner must implement it. */
const CALLBACK_TEXT: Record<CallbackName, { purpose: string; required: boolean }> = {
  place: {
    purpose:
      'A player placed a bet: hold (freeze, do not withdraw) bet_stake. Answer 400 with a final code ' +
      `(${FINAL_PLACE_ERROR_CODES.join(', ')}) to refuse it; any other error, a 5xx or a timeout is retried a few ` +
      'times, then the bet is force-declined and a /bet/decline follows.',
    required: true,
  },
  accept: { purpose: 'The bet was accepted: capture the held stake.', required: true },
  decline: {
    purpose: 'The bet was declined (restrictions say why): release the held stake.',
    required: true,
  },
  settle: {
    purpose:
      `The bet was settled: credit settle_amount (settle_type ${describeCodes(SETTLE_TYPE_CODES)}). After an unsettle the ` +
      'next settle carries the new full amount.',
    required: true,
  },
  unsettle: {
    purpose: 'A settlement was revoked: debit unsettle_amount, the whole settle_amount it reverses.',
    required: true,
  },
  insuranceAccepted: { purpose: 'An insured bet lost: credit refund_amount.', required: false },
  insuranceDeclined: { purpose: 'An insured bet won or was refunded: no money moves.', required: false },
  insuranceCancel: {
    purpose:
      'A paid insurance is taken back because its bet was unsettled: debit refund_amount. Sent only to white ' +
      'labels that turned it on.',
    required: false,
  },
  heartbeat: {
    purpose:
      'Liveness of an active player session; empty body. A 404 or auth_credentials_expired ends the session.',
    required: false,
  },
  cashOutAccepted: { purpose: 'A cash-out order was accepted: credit refund_amount.', required: false },
  cashOutDeclined: { purpose: 'Cash-out orders were declined: no money moves.', required: false },
};

/** A JSON Schema of a TypeBox schema: the plain JSON (TypeBox's symbols dropped). */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema));
}

/** One callback as `list_callback_endpoints` describes it. */
export function callbackEndpoint(name: CallbackName) {
  const text = CALLBACK_TEXT[name];
  return {
    callback: name,
    method: 'POST',
    path: CALLBACK_PATHS[name],
    required: text.required,
    purpose: text.purpose,
    request: {
      headers: {
        'content-type': 'application/json (absent for the heartbeat)',
        accept: '*/*',
        'foreign-params':
          "JSON object: the params given when the player's session token was created ({} when none)",
        'webhook-id': 'the request_id (the heartbeat: hb_<uuid>)',
        'webhook-timestamp': 'unix seconds',
        'webhook-signature': 'v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the signing secret>',
      },
      body: name === 'heartbeat' ? null : plain(CALLBACK_BODIES[name]),
    },
    expected_response: {
      success: '204 with an empty body (any 2xx counts; redirects are failures)',
      failure: { status: 400, body: plain(CallbackErrorBody) },
      idempotency:
        name === 'heartbeat'
          ? 'not idempotent: no request_id'
          : 'a repeated request_id must get the same status and content as the first answer',
      ...(text.required ? {} : { not_implemented: '404, 405 or 501: Bookie marks the delivery unsupported' }),
    },
  };
}

/** `list_callback_endpoints`: every callback the partner implements, its request and expected answer. */
export function listCallbackEndpoints() {
  return CALLBACK_NAMES.map(callbackEndpoint);
}

/** A `get_contract` answer, or an error message naming the argument. */
export type ContractAnswer = { ok: true; value: unknown } | { ok: false; error: string };

function operationSummary(op: RestOperation) {
  return { operation: op.name, method: op.method, path: op.path, summary: op.summary };
}

/**
 * `get_contract` (spec 01 "MCP server"): no arguments → the specs and who implements them; a spec → its operations;
 * a spec and an operation → the operation's resolved request schema (and its answers).
 */
export function getContract(
  operations: readonly RestOperation[],
  args: { spec?: string | undefined; operation?: string | undefined },
): ContractAnswer {
  const bySpec = (spec: SpecName) => operations.filter((o) => specOf(o) === spec);
  if (args.spec === undefined) {
    if (args.operation !== undefined) return { ok: false, error: 'operation: give a spec with it' };
    return {
      ok: true,
      value: {
        specs: Object.entries(SPECS).map(([spec, s]) => {
          const count = spec === 'callbacks' ? CALLBACK_NAMES.length : bySpec(spec as SpecName).length;
          return {
            spec,
            implemented_by: s.implemented_by,
            description: s.description,
            operations: count,
            ...(count === 0 ? { status: 'not yet available in this deployment' } : {}),
          };
        }),
      },
    };
  }
  if (!Object.hasOwn(SPECS, args.spec)) {
    return { ok: false, error: `spec: unknown spec "${args.spec}"; one of ${Object.keys(SPECS).join(', ')}` };
  }
  const spec = args.spec as SpecName;
  if (spec === 'callbacks') {
    if (args.operation === undefined) {
      return {
        ok: true,
        value: {
          spec,
          implemented_by: 'partner',
          operations: CALLBACK_NAMES.map((n) => ({
            operation: n,
            method: 'POST',
            path: CALLBACK_PATHS[n],
            summary: CALLBACK_TEXT[n].purpose,
            required: CALLBACK_TEXT[n].required,
          })),
        },
      };
    }
    const name = CALLBACK_NAMES.find((n) => n === args.operation || CALLBACK_PATHS[n] === args.operation);
    if (!name) return { ok: false, error: `operation: no callback "${args.operation}" in spec callbacks` };
    return { ok: true, value: { spec, ...callbackEndpoint(name) } };
  }
  const ops = bySpec(spec);
  if (args.operation === undefined) {
    return {
      ok: true,
      value: {
        spec,
        implemented_by: 'platform',
        operations: ops.map(operationSummary),
        ...(ops.length === 0
          ? { status: `not yet available: this deployment has no ${spec} operations yet` }
          : {}),
      },
    };
  }
  const op = ops.find((o) => o.name === args.operation || o.operationId === args.operation);
  if (!op) return { ok: false, error: `operation: no operation "${args.operation}" in spec ${spec}` };
  return {
    ok: true,
    value: {
      spec,
      operation: op.name,
      method: op.method,
      path: op.path,
      summary: op.summary,
      description: op.description,
      request: op.inputSchema,
      responses: op.responses,
    },
  };
}

/**
 * `build_callback_fixture {callback, overrides?}`: a valid, realistic body of a callback (the SDK's fixtures, the
 * ones the partner check sends) with `overrides` laid over its top-level fields, checked against the callback's
 * schema.
 */
export function callbackFixture(callback: unknown, overrides: unknown): ContractAnswer {
  const name = CALLBACK_NAMES.find((n) => n === callback || CALLBACK_PATHS[n] === callback);
  if (!name) {
    return {
      ok: false,
      error: `callback: unknown callback ${JSON.stringify(callback)}; one of ${CALLBACK_NAMES.join(', ')}`,
    };
  }
  if (
    overrides !== undefined &&
    (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides))
  ) {
    return { ok: false, error: 'overrides: expected an object of body fields' };
  }
  if (name === 'heartbeat' && overrides !== undefined && Object.keys(overrides).length > 0) {
    return { ok: false, error: 'overrides: the heartbeat has no body' };
  }
  const body = buildCallbackFixture(name, (overrides ?? {}) as never);
  const issues = callbackBodyIssues(name, body);
  if (issues.length > 0) {
    return {
      ok: false,
      error: `overrides: the body no longer fits the ${CALLBACK_PATHS[name]} schema: ${issues.map((i) => `${i.field || 'body'}: ${i.message}`).join('; ')}`,
    };
  }
  return { ok: true, value: { callback: name, method: 'POST', path: CALLBACK_PATHS[name], body } };
}
