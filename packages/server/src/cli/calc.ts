import { readFile } from 'node:fs/promises';
import { describeCodes, ODD_STATUS, ODD_STATUS_CODES } from '@bookie/contracts';
import { type CalcOutput, calculateBet, validationError } from '@bookie/core';
import { Command } from 'commander';
import { action, printJson } from './io.js';

/**
 * Parses the calculator's JSON text and settles the bet (core `calculateBet`).
 *
 * @throws DomainError `validation_error` naming the field (`input` for malformed JSON).
 */
export function calcFromText(text: string): CalcOutput {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    throw validationError('input', `is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return calculateBet(input);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads the calculator input from `file`, or from stdin when no file (or `-`) is given. */
export async function readCalcInput(file?: string): Promise<string> {
  if (file === undefined || file === '-') return readStdin();
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw validationError('file', `cannot read ${file} (${code})`);
  }
}

/**
 * `bookie calc [file]`: the bet calculator. Reads a bet as JSON (shape of the cases of the settlement vectors, plus
 * optional `boost` and `insurance`) from the file or stdin and prints `{payout, settle_amount, settle_type,
 * insurance_refund}`. Bad input prints one line `error: <field>: <reason>` to stderr and exits 2.
 */
export function calcCommand(): Command {
  return new Command('calc')
    .description(
      'bet calculator: settle a bet given as JSON (file or stdin) and print payout and settle type',
    )
    .argument('[file]', 'JSON file with the bet; stdin when omitted or "-"')
    .addHelpText(
      'after',
      `
Input: {"bet_type": "single"|"express"|"system", "stake": "10", "system_sizes": [2],
        "legs": [{"odds": "1.85", "status": 1, "dead_heat"?: "0.5"}],
        "freebet_amount"?: "10", "boost"?: {"multiplier": "1.1"},
        "insurance"?: {"type": "percent", "percent": "10", "max_amount": "15", "max_odds_count_lose": 2},
        "express_cap"?: "50000", "max_payout"?: "20000"}
Decimals are strings. Leg status: ${describeCodes(ODD_STATUS_CODES, { min: ODD_STATUS.WIN })}.
Output: {"payout", "settle_amount", "settle_type", "insurance_refund"}; amounts with 6 decimals.
Example: echo '{"bet_type":"single","stake":"10","legs":[{"odds":"1.85","status":1}]}' | bookie calc`,
    )
    .action(
      action(async (file?: string) => {
        printJson(calcFromText(await readCalcInput(file)));
      }),
    );
}
