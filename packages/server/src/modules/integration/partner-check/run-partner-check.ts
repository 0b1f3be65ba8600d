import { randomUUID } from 'node:crypto';
import { OPTIONAL_CALLBACKS } from '@bookie/contracts';
import {
  type BalanceReader,
  type BalanceView,
  ExpectedBalance,
  sameBalance,
  viewOf,
  walletBalanceReader,
} from './balance.js';
import { CallbackClient } from './callback-client.js';
import {
  NotProvoked,
  type Provocations,
  type Scenario,
  type ScenarioContext,
  Unsupported,
} from './scenario.js';
import { SCENARIOS } from './scenarios.js';

/** Input of {@link runPartnerCheck}. */
export interface PartnerCheckOptions {
  /** The partner's callback server (the white label's callback URL). */
  callbackUrl: string;
  /** The white label's signing secret (`whsec_…`, DECISIONS D11); unsigned callbacks without it. */
  secret?: string | undefined;
  /** The player whose money the scenarios move; the partner must know the player with at least 20 in `currency`. */
  playerId: string;
  /** The player's currency (default EUR). */
  currency?: string;
  /** The `Foreign-Params` header sent with every callback (DECISIONS D7; default `{currency}`, the session's currency). */
  foreignParams?: Record<string, unknown>;
  /**
   * Where the partner shows the player's balance, as the reference wallet does (`GET {url}/players/{id}/balance`).
   * Default: the callback URL is tried; `false`: the balance is not read, only the expected one is reported.
   */
  balanceUrl?: string | false;
  /** Timeout of one callback, ms (default 5000). */
  timeoutMs?: number;
  /** How to make the partner answer the final place errors only it can decide (else those are `not_provoked`). */
  provoke?: Provocations;
  /** Only these scenarios (default all). */
  only?: readonly string[];
  /** Called after each scenario (the CLI prints as it goes). */
  onResult?: (result: ScenarioResult) => void;
}

/** The outcome of one scenario. `not_provoked` and `unsupported` are not failures. */
export type ScenarioStatus = 'pass' | 'fail' | 'unsupported' | 'not_provoked';

/** One scenario in the report. */
export interface ScenarioResult {
  id: string;
  rule: string;
  status: ScenarioStatus;
  /** Why it failed, or what was not provoked or not supported. */
  message?: string;
  /** Each callback sent and the status it got, in order. */
  answers: { callback: string; status: number }[];
  /**
   * The balance the partner should show after the scenario; when the partner's balance cannot be read, the change
   * since the check started.
   */
  expected_balance: BalanceView;
  /** The balance the partner showed, when it can be read. */
  observed_balance?: BalanceView;
}

/** The JSON report of a partner check. */
export interface PartnerCheckReport {
  callback_url: string;
  player_id: string;
  currency: string;
  /** Where the balance was read, or null when the partner offers no balance API the check knows. */
  balance_source: string | null;
  started_at: string;
  finished_at: string;
  /** True when no scenario failed. */
  ok: boolean;
  counts: Record<ScenarioStatus, number>;
  /**
   * Per optional callback the check exercised: `supported` when the partner answered it (rightly or not),
   * `unsupported` when it answered 404, 405 or 501, `not_checked` when no scenario of it ran. Through the API the
   * white label's own state (announced, learnt, supported) is added beside it.
   */
  optional_callbacks: Record<string, PartnerCheckOptionalCallback>;
  scenarios: ScenarioResult[];
}

/** What a partner check found of one optional callback, and (through the API) what Bookie knows of it. */
export interface PartnerCheckOptionalCallback {
  checked: 'supported' | 'unsupported' | 'not_checked';
  announced?: boolean | null;
  learnt?: 'unknown' | 'supported' | 'unsupported';
  supported?: boolean;
}

/** What the scenarios found of each optional callback they exercise. */
export function checkedOptionalCallbacks(
  results: ReadonlyArray<Pick<ScenarioResult, 'id' | 'status'>>,
  scenarios: readonly Scenario[] = SCENARIOS,
): Record<string, PartnerCheckOptionalCallback> {
  const out: Record<string, PartnerCheckOptionalCallback> = {};
  for (const name of OPTIONAL_CALLBACKS) out[name] = { checked: 'not_checked' };
  for (const r of results) {
    const capability = scenarios.find((s) => s.id === r.id)?.capability;
    if (!capability || r.status === 'not_provoked') continue;
    const entry = out[capability] as PartnerCheckOptionalCallback;
    if (r.status === 'unsupported') entry.checked = 'unsupported';
    else if (entry.checked === 'not_checked') entry.checked = 'supported';
  }
  return out;
}

async function findBalanceReader(
  options: PartnerCheckOptions,
  timeoutMs: number,
): Promise<BalanceReader | undefined> {
  if (options.balanceUrl === false) return undefined;
  const reader = walletBalanceReader(options.balanceUrl ?? options.callbackUrl, timeoutMs);
  try {
    await reader.read(options.playerId, options.currency ?? 'EUR');
    return reader;
  } catch (err) {
    if (options.balanceUrl !== undefined) {
      throw new Error(
        `cannot read the balance at ${reader.source}: ${err instanceof Error ? err.message : err}`,
      );
    }
    return undefined;
  }
}

/**
 * The partner check (spec 01 "mandatory integration testing phase"): plays every scenario of {@link SCENARIOS}
 * against a partner's callback server as the platform would, keeps the balance the partner should show, compares
 * it with the partner's own where it can be read, and reports pass/fail per scenario with the contract rule.
 * Scenarios run one after another, each on its own bets; after a balance mismatch the expected balance starts again
 * from the observed one, so one fault fails one scenario.
 *
 * @throws Error only when an explicit `balanceUrl` cannot be read; the partner's faults are in the report.
 */
export async function runPartnerCheck(options: PartnerCheckOptions): Promise<PartnerCheckReport> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const currency = options.currency ?? 'EUR';
  const started = new Date();
  const client = new CallbackClient({
    callbackUrl: options.callbackUrl,
    secret: options.secret,
    foreignParams: options.foreignParams ?? { currency },
    timeoutMs,
  });
  const reader = await findBalanceReader(options, timeoutMs);
  const expected = new ExpectedBalance(reader ? await reader.read(options.playerId, currency) : undefined);
  const run = randomUUID().slice(0, 8);
  let n = 0;
  const results: ScenarioResult[] = [];
  const scenarios: readonly Scenario[] = options.only
    ? SCENARIOS.filter((s) => options.only?.includes(s.id))
    : SCENARIOS;

  for (const scenario of scenarios) {
    const answers: ScenarioResult['answers'] = [];
    const ctx: ScenarioContext = {
      client,
      balance: expected,
      playerId: options.playerId,
      newBetId: () => `check-${run}-${++n}`,
      observedAvailable: async () =>
        reader ? viewOf(await reader.read(options.playerId, currency)).available : undefined,
      record: (callback, answer) => answers.push({ callback, status: answer.status }),
      provoke: options.provoke ?? {},
    };
    let status: ScenarioStatus = 'pass';
    let message: string | undefined;
    try {
      await scenario.run(ctx);
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
      // a CheckFailure is the partner breaking a rule; any other error is reported as a failure too
      status =
        err instanceof Unsupported ? 'unsupported' : err instanceof NotProvoked ? 'not_provoked' : 'fail';
    }
    let observed: BalanceView | undefined;
    if (reader) {
      try {
        const b = await reader.read(options.playerId, currency);
        observed = viewOf(b);
        if (!sameBalance(b, expected.current)) {
          const want = viewOf(expected.current);
          if (status !== 'fail') {
            status = 'fail';
            message = `the balance should be available ${want.available}, held ${want.held}; the partner shows available ${observed.available}, held ${observed.held}`;
          }
          expected.rebase(b);
        }
      } catch (err) {
        status = 'fail';
        message = `${message ? `${message}; ` : ''}cannot read the balance: ${err instanceof Error ? err.message : err}`;
      }
    }
    const result: ScenarioResult = {
      id: scenario.id,
      rule: scenario.rule,
      status,
      ...(message ? { message } : {}),
      answers,
      expected_balance: viewOf(expected.current),
      ...(observed ? { observed_balance: observed } : {}),
    };
    // after a failure the bet may be left half-way; what the partner shows is the new starting point
    results.push(result);
    options.onResult?.(result);
  }
  const counts: Record<ScenarioStatus, number> = { pass: 0, fail: 0, unsupported: 0, not_provoked: 0 };
  for (const r of results) counts[r.status]++;
  return {
    callback_url: options.callbackUrl,
    player_id: options.playerId,
    currency,
    balance_source: reader?.source ?? null,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    ok: counts.fail === 0,
    counts,
    optional_callbacks: checkedOptionalCallbacks(results, scenarios),
    scenarios: results,
  };
}

/** One line per scenario for a terminal: `PASS settle_win — rule` and, below a failure, why. */
export function formatReportLines(result: ScenarioResult): string {
  const tag = { pass: 'PASS', fail: 'FAIL', unsupported: 'UNSUPPORTED', not_provoked: 'NOT PROVOKED' }[
    result.status
  ];
  const lines = [`${tag.padEnd(12)} ${result.id}  (${result.rule})`];
  if (result.message) lines.push(`${' '.repeat(13)}${result.message}`);
  return `${lines.join('\n')}\n`;
}
