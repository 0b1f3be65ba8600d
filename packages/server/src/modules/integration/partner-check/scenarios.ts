/**
 * The partner check's scenarios: every callback situation of the callback contract's played as the platform plays it, each with the
 * contract rule it checks. A scenario throws {@link CheckFailure} when the partner breaks the rule and
 * {@link Unsupported} when an optional callback is answered 404, 405 or 501 (the optional callbacks rule).
 *
 * @packageDocumentation
 */

import { INSURANCE_AND_CASH_OUT_SCENARIOS } from './insurance-cash-out-scenarios.js';
import { PLACE_SCENARIOS } from './place-scenarios.js';
import { REPEAT_SCENARIOS } from './repeat-scenarios.js';
import type { Scenario } from './scenario.js';
import { SETTLE_SCENARIOS } from './settle-scenarios.js';

/** Every scenario, in the order they run. */
export const SCENARIOS: readonly Scenario[] = [
  ...PLACE_SCENARIOS,
  ...SETTLE_SCENARIOS,
  ...INSURANCE_AND_CASH_OUT_SCENARIOS,
  ...REPEAT_SCENARIOS,
];

/** The ids of every scenario, in order. */
export const SCENARIO_IDS = SCENARIOS.map((s) => s.id);
