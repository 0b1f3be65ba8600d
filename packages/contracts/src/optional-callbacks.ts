/**
 * Optional callbacks as capabilities of a white label (docs/decisions.md, "Optional callbacks"): what a partner
 * announces it implements, what Bookie learns from its answers, and the one rule that says whether Bookie may rely
 * on a capability. The server, the backoffice, the CLI and the partner check all read this module.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { CALLBACK_PATHS } from './callbacks.js';

import { OPTIONAL_CALLBACKS, type OptionalCallback } from './optional-callback-names.js';

export { OPTIONAL_CALLBACKS, type OptionalCallback };

/** Path of the banners callback (docs/decisions.md, "Banners"); not part of the bet outbox. */
export const BANNERS_CALLBACK_PATH = '/banners';

/** The capability each optional callback path belongs to; a path not listed is mandatory. */
export const OPTIONAL_CALLBACK_OF_PATH: Readonly<Record<string, OptionalCallback>> = {
  [CALLBACK_PATHS.heartbeat]: 'heartbeat',
  [BANNERS_CALLBACK_PATH]: 'banners',
  [CALLBACK_PATHS.cashOutAccepted]: 'cash_out',
  [CALLBACK_PATHS.cashOutDeclined]: 'cash_out',
  [CALLBACK_PATHS.insuranceAccepted]: 'insurance',
  [CALLBACK_PATHS.insuranceDeclined]: 'insurance',
  [CALLBACK_PATHS.insuranceCancel]: 'insurance_cancel',
};

/**
 * Paths of the optional callbacks (the keys of {@link OPTIONAL_CALLBACK_OF_PATH}). A partner that answers one of them
 * 404, 405 or 501 does not implement it: the delivery is marked `unsupported`, not retried, and the bet's later
 * callbacks go on.
 */
export const OPTIONAL_CALLBACK_PATHS: ReadonlySet<string> = new Set(Object.keys(OPTIONAL_CALLBACK_OF_PATH));

/** HTTP statuses that say a partner does not implement an optional callback (the optional callbacks rule). */
export const UNSUPPORTED_CALLBACK_STATUSES: ReadonlySet<number> = new Set([404, 405, 501]);

/**
 * What Bookie has learnt of one optional callback from the partner's answers: `unsupported` after a 404, 405 or 501
 * to it, `supported` after a 2xx that followed, `unknown` before either.
 */
export const LearntSupport = Type.Union(
  [Type.Literal('unknown'), Type.Literal('supported'), Type.Literal('unsupported')],
  { description: 'unknown | supported | unsupported' },
);
export type LearntSupport = Static<typeof LearntSupport>;

/** The state of one optional callback of a white label. */
export interface OptionalCallbackState {
  /** What the partner announced: `true` implements it, `false` does not, `null` said nothing. */
  announced: boolean | null;
  /** What Bookie learnt from answers. */
  learnt: LearntSupport;
}

/**
 * Whether Bookie relies on an optional callback of a white label (the optional callbacks rule):
 * - `heartbeat` and `cash_out` only when announced (a partner that said nothing never gets heartbeats, so it never
 *   logs players out, and its players are offered no cash-out it could not pay);
 * - every other capability unless the partner announced it does not implement it;
 * - none that it answered 404, 405 or 501 since it last announced it.
 *
 * Pure; throws nothing.
 */
export function optionalCallbackSupported(callback: OptionalCallback, state: OptionalCallbackState): boolean {
  if (state.learnt === 'unsupported') return false;
  if (ANNOUNCED_ONLY.has(callback)) return state.announced === true || state.learnt === 'supported';
  return state.announced !== false;
}

/**
 * The capabilities Bookie relies on only once announced (or answered 2xx): heartbeat (a 404 to it logs a player
 * out) and cash-out (an order accepted on a callback the partner lacks would have to be taken back).
 */
const ANNOUNCED_ONLY: ReadonlySet<OptionalCallback> = new Set(['heartbeat', 'cash_out']);

/** One optional callback of a white label as the admin, partner and backoffice views show it. */
export const OptionalCallbackView = Type.Object(
  {
    announced: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'what the partner announced: true implements it, false does not, null said nothing',
    }),
    learnt: LearntSupport,
    learnt_at: Type.Union([Type.String(), Type.Null()], {
      description: 'when Bookie last learnt it from an answer (ISO 8601)',
    }),
    last_status: Type.Union([Type.Integer(), Type.Null()], {
      description: 'the HTTP status of that answer',
    }),
    supported: Type.Boolean({ description: 'whether Bookie sends it and offers what depends on it' }),
  },
  { additionalProperties: false },
);
export type OptionalCallbackView = Static<typeof OptionalCallbackView>;

/** Every optional callback of a white label, by capability name. */
export const OptionalCallbacksView = Type.Object(
  {
    heartbeat: OptionalCallbackView,
    banners: OptionalCallbackView,
    cash_out: OptionalCallbackView,
    insurance: OptionalCallbackView,
    insurance_cancel: OptionalCallbackView,
  },
  {
    additionalProperties: false,
    description:
      'per optional callback: what the partner announced, what Bookie learnt from its answers, and whether Bookie relies on it',
  },
);
export type OptionalCallbacksView = Static<typeof OptionalCallbacksView>;

const announcement = (what: string) =>
  Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description: `${what}: true announces it, false withdraws it, null forgets the announcement`,
    }),
  );

/**
 * What a partner (or the operator for it) announces of its optional callbacks; only the names given change. Announcing
 * a callback again (`true`) forgets that Bookie learnt it unsupported.
 */
export const OptionalCallbacksInput = Type.Object(
  {
    heartbeat: announcement('POST /heartbeat'),
    banners: announcement('POST /banners'),
    cash_out: announcement('/bet/cash-out-orders/accepted and /declined'),
    insurance: announcement('/bet/insurances/accepted and /decline'),
    insurance_cancel: announcement('/bet/insurances/cancel'),
  },
  {
    additionalProperties: false,
    description:
      'the optional callbacks the partner announces it implements; only the names given change (insurance_cancel null means the default: on)',
    examples: [{ heartbeat: true, cash_out: false }],
  },
);
export type OptionalCallbacksInput = Static<typeof OptionalCallbacksInput>;
