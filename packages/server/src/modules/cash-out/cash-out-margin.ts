import {
  compare,
  DomainError,
  formatMoney,
  ONE,
  parseDecimal,
  type Rational,
  validationError,
} from '@bookie/core';
import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { auditRisk } from '../risk/index.js';
import { findWhiteLabel } from '../tenants/index.js';
import { listMargins, writeMargin } from './cash-out.repo.js';

/** What the cash-out margin settings need: the database and the configured default (`CASH_OUT_MARGIN`). */
export interface MarginDeps {
  database: Database;
  defaultMargin: Rational;
}

/** The cash-out margins as the operator API and `bookie risk cash-out-margin` show them (fractions, 6 decimals). */
export interface MarginsView {
  /** The margin of every white label without its own (`CASH_OUT_MARGIN`). */
  default_margin: string;
  /** The white labels with their own margin. */
  margins: Array<{ white_label_id: string; margin: string }>;
}

const fraction = (v: string, field: string) => formatMoney(parseDecimal(v, { field, maxDecimals: 6 }));

/** Every white label's own cash-out margin and the default (D42). */
export async function cashOutMargins(deps: MarginDeps): Promise<MarginsView> {
  return {
    default_margin: formatMoney(deps.defaultMargin),
    margins: (await listMargins(deps.database.db)).map((m) => ({
      white_label_id: m.white_label_id,
      margin: fraction(m.margin, 'margin'),
    })),
  };
}

/**
 * Sets a white label's cash-out margin (D42): the offer is the fair value × (1 − margin). A decimal in [0, 1) with at
 * most 6 decimals; `null` removes it and the default (`CASH_OUT_MARGIN`) applies again. Audited
 * (`risk.cash_out_margin`) in the same transaction; quotes of every process use it within `RISK_SETTINGS_CACHE_MS`.
 *
 * @throws DomainError validation_error naming `white_label_id` or `margin`; not_found for an unknown white label.
 */
export async function setCashOutMargin(
  deps: MarginDeps,
  input: { white_label_id: unknown; margin: unknown },
  actor: string,
): Promise<MarginsView> {
  const wl = input.white_label_id;
  if (typeof wl !== 'string' || wl === '' || wl.length > 64) {
    throw validationError('white_label_id', 'must be a white label id');
  }
  let margin: string | null = null;
  if (input.margin !== null) {
    if (typeof input.margin !== 'string') throw validationError('margin', 'must be a decimal string or null');
    const m = parseDecimal(input.margin, { field: 'margin', maxDecimals: 6 });
    if (compare(m, ONE) >= 0) throw validationError('margin', 'must be at least 0 and below 1');
    margin = formatMoney(m);
  }
  await inTransaction(deps.database.db, async (tx) => {
    if (!(await findWhiteLabel(tx, wl)))
      throw new DomainError('not_found', `white label ${wl} not found`, { white_label_id: wl });
    await writeMargin(tx, wl, margin);
    await auditRisk(tx, {
      actor,
      action: 'risk.cash_out_margin',
      subject: `white_label:${wl}`,
      details: { margin },
    });
  });
  return cashOutMargins(deps);
}
