import { writeFile } from 'node:fs/promises';
import { validationError } from '@bookie/core';
import { Command } from 'commander';
import {
  formatReportLines,
  runPartnerCheck,
} from '../modules/integration/partner-check/run-partner-check.js';
import { SCENARIO_IDS } from '../modules/integration/partner-check/scenarios.js';
import { action, EXIT } from './io.js';

interface PartnerCheckFlags {
  secret?: string;
  player: string;
  currency: string;
  balanceUrl?: string;
  balance: boolean;
  foreignParams?: string;
  timeout: string;
  only?: string;
  report: string;
  unknownSession?: string;
  expiredSession?: string;
  limitedPlayer?: string;
}

function jsonObject(flag: string, raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw validationError(flag, 'is not valid JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw validationError(flag, 'must be a JSON object');
  return v as Record<string, unknown>;
}

function parseUrl(flag: string, raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw;
  } catch {}
  throw validationError(flag, `expected an http(s) URL, got "${raw}"`);
}

/**
 * `bookie partner-check <callback-url> --secret <signing secret> [--player …]`: plays every callback scenario against
 * a partner's callback server, prints PASS/FAIL per scenario with its contract rule, writes the JSON report, and exits
 * 1 when a scenario failed (2 on bad input).
 */
export function partnerCheckCommand(): Command {
  return new Command('partner-check')
    .description(
      "play every callback scenario of the contract against a partner's callback server; exit 1 on any failure",
    )
    .argument('<callback-url>', "the partner's callback server, e.g. https://partner.example/callbacks")
    .option('--secret <secret>', "the white label's signing secret (whsec_…); unsigned callbacks without it")
    .option(
      '--player <id>',
      'a player known to the partner with at least 20 in the currency',
      'partner-check',
    )
    .option('--currency <code>', "the player's currency", 'EUR')
    .option(
      '--balance-url <url>',
      'where the partner serves GET /players/{id}/balance like the reference wallet (default: try the callback URL)',
    )
    .option('--no-balance', "do not read the partner's balance; report the expected one only")
    .option(
      '--foreign-params <json>',
      'the Foreign-Params header to send (a JSON object; default: {"currency": <--currency>})',
    )
    .option('--timeout <ms>', 'timeout of one callback', '5000')
    .option('--only <ids>', `comma-separated scenario ids (${SCENARIO_IDS.join(', ')})`)
    .option('--report <file>', 'where to write the JSON report', 'partner-check-report.json')
    .option(
      '--unknown-session <json>',
      'Foreign-Params of a session the partner does not know (auth_session_unknown)',
    )
    .option(
      '--expired-session <json>',
      'Foreign-Params of a session the partner holds expired (auth_credentials_expired)',
    )
    .option('--limited-player <id>', "a player whose limits refuse the check's bets (player_limit_crossed)")
    .action(
      action(async (callbackUrl: string, o: PartnerCheckFlags) => {
        parseUrl('callback-url', callbackUrl);
        if (o.balanceUrl) parseUrl('--balance-url', o.balanceUrl);
        if (!/^[A-Z]{3}$/.test(o.currency))
          throw validationError('--currency', `expected ISO 4217 such as EUR`);
        if (!/^\d{2,6}$/.test(o.timeout)) throw validationError('--timeout', 'expected 10..999999 ms');
        const foreignParams = jsonObject('--foreign-params', o.foreignParams);
        const only = o.only
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = only?.find((id) => !SCENARIO_IDS.includes(id));
        if (unknown) throw validationError('--only', `unknown scenario "${unknown}"`);
        const report = await runPartnerCheck({
          callbackUrl,
          secret: o.secret,
          playerId: o.player,
          currency: o.currency,
          foreignParams,
          balanceUrl: o.balance === false ? false : o.balanceUrl,
          timeoutMs: Number(o.timeout),
          provoke: {
            unknownSession: jsonObject('--unknown-session', o.unknownSession),
            expiredSession: jsonObject('--expired-session', o.expiredSession),
            limitedPlayer: o.limitedPlayer,
          },
          ...(only ? { only } : {}),
          onResult: (r) => process.stdout.write(formatReportLines(r)),
        });
        await writeFile(o.report, `${JSON.stringify(report, null, 2)}\n`);
        const c = report.counts;
        process.stdout.write(
          `\n${c.pass} passed, ${c.fail} failed, ${c.unsupported} unsupported, ${c.not_provoked} not provoked` +
            `${report.balance_source ? '' : " (the partner's balance could not be read: expected balances only)"}` +
            `; report: ${o.report}\n`,
        );
        if (!report.ok) process.exit(EXIT.failure);
      }),
    );
}
