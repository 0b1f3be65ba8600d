import type { ExposureList } from '@bookie/contracts';
import { formatMoney, parseDecimal } from '@bookie/core';
import type { ExposureRow } from './exposure.repo.js';
import { liabilityLimitOf, type RiskSettingsSnapshot } from './risk-book.js';

/**
 * One outcome's stored exposure as the operator sees it (the exposure listing, the overview's largest): amounts in
 * EUR with six decimals, and the liability limit that applies to it (null when none does).
 */
export function exposureView(settings: RiskSettingsSnapshot, r: ExposureRow): ExposureList['items'][number] {
  const limit = liabilityLimitOf(settings, r.white_label_id, r.market_type_id, r.phase);
  return {
    white_label_id: r.white_label_id,
    sport_event_id: r.sport_event_id,
    market_id: r.market_id,
    odd_id: r.odd_id,
    phase: r.phase,
    market_type_id: r.market_type_id,
    exposure_eur: formatMoney(
      parseDecimal(r.amount, { field: 'amount', maxDecimals: 6, allowNegative: true }),
    ),
    max_exposure_eur: formatMoney(
      parseDecimal(r.max_amount, { field: 'max_amount', maxDecimals: 6, allowNegative: true }),
    ),
    limit_eur: limit ? formatMoney(limit) : null,
  };
}
