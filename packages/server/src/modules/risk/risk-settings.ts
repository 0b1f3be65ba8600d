import { DomainError, formatMoney, parseDecimal, validationError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { inTransaction } from '../../db/transaction.js';
import { findWhiteLabel } from '../tenants/index.js';
import type { RiskDeps } from './deps.js';
import { listGroups } from './risk-group.js';
import { type Actor, amount, PHASES, phaseOf } from './risk-input.js';
import {
  auditRisk,
  type DelayRow,
  type LimitRow,
  readDelays,
  readLimits,
  writeDelay,
  writeLimit,
} from './risk-settings.repo.js';

/** A limit as the operator API shows it. */
export interface LimitView {
  white_label_id: string;
  market_type_id: string;
  phase: 'live' | 'prematch';
  liability_eur: string;
}

function limitView(r: LimitRow): LimitView {
  return {
    white_label_id: r.white_label_id,
    market_type_id: r.market_type_id,
    phase: r.phase,
    liability_eur: formatMoney(parseDecimal(r.liability_eur, { field: 'liability_eur', maxDecimals: 6 })),
  };
}

/** The liability limits (D38), of one white label or all. */
export async function listLimits(
  deps: Pick<RiskDeps, 'database'>,
  whiteLabelId?: string,
): Promise<LimitView[]> {
  return (await readLimits(deps.database.db, whiteLabelId)).map(limitView);
}

/**
 * Sets the liability limit per outcome of a white label's market type (`*`: every type without its own), live or
 * prematch, in EUR; `liability_eur: null` removes it. Audited; effective at once in this process.
 *
 * @throws DomainError validation_error naming `white_label_id`, `market_type_id`, `phase` or `liability_eur`;
 * not_found for an unknown white label.
 */
export async function setLimit(
  deps: Pick<RiskDeps, 'database' | 'book'>,
  input: { white_label_id: unknown; market_type_id: unknown; phase: unknown; liability_eur: unknown },
  actor: Actor,
): Promise<LimitView[]> {
  const wl = input.white_label_id;
  if (typeof wl !== 'string' || wl === '')
    throw validationError('white_label_id', 'must be a white label id');
  const mt = input.market_type_id;
  if (typeof mt !== 'string' || !/^(\*|[A-Za-z0-9_:.-]{1,64})$/.test(mt)) {
    throw validationError('market_type_id', 'must be a market type id or *');
  }
  const phase = phaseOf(input.phase, 'phase');
  const liability = input.liability_eur === null ? null : amount(input.liability_eur, 'liability_eur');
  await inTransaction(deps.database.db, async (tx) => {
    await assertWhiteLabel(tx, wl);
    await writeLimit(tx, { whiteLabelId: wl, marketTypeId: mt, phase, liabilityEur: liability });
    await auditRisk(tx, {
      actor,
      action: 'risk.limit',
      subject: `white_label:${wl}`,
      details: { market_type_id: mt, phase, liability_eur: liability },
    });
  });
  deps.book.invalidate();
  return listLimits(deps, wl);
}

async function assertWhiteLabel(tx: Executor, id: string): Promise<void> {
  if (!(await findWhiteLabel(tx, id))) throw new DomainError('not_found', `white label ${id} not found`);
}

/** A delay level as the APIs show it. */
export interface DelayView {
  level: DelayRow['level'];
  key: string;
  phase: 'live' | 'prematch';
  seconds: string;
}

/** Every bet delay level (D34). */
export async function listDelays(deps: Pick<RiskDeps, 'database'>): Promise<DelayView[]> {
  return (await readDelays(deps.database.db)).map((d) => ({
    level: d.level,
    key: d.key,
    phase: d.phase,
    seconds:
      parseDecimal(d.seconds, { field: 'seconds', maxDecimals: 3 }).num === 0n ? '0' : trimSeconds(d.seconds),
  }));
}

function trimSeconds(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/**
 * Sets (or with `seconds: null` removes) a bet delay for a sport event, a market type or a risk group, live or
 * prematch (D34): 0–300 s with at most 3 decimals. Audited; effective at once here.
 *
 * @throws DomainError validation_error naming `level`, `key`, `phase` or `seconds`.
 */
export async function setDelay(
  deps: Pick<RiskDeps, 'database' | 'book'>,
  input: { level: unknown; key: unknown; phase: unknown; seconds: unknown },
  actor: Actor,
): Promise<DelayView[]> {
  const level = input.level;
  if (level !== 'sport_event' && level !== 'market_type' && level !== 'risk_group') {
    throw validationError('level', 'must be sport_event, market_type or risk_group');
  }
  if (typeof input.key !== 'string' || input.key === '' || input.key.length > 128) {
    throw validationError('key', 'must be the sport event id, market type id or group name');
  }
  const phase = phaseOf(input.phase, 'phase');
  let seconds: string | null = null;
  if (input.seconds !== null) {
    const s = parseDecimal(input.seconds, { field: 'seconds', maxDecimals: 3 });
    if (s.num < 0n || s.num > 300n * s.den) throw validationError('seconds', 'must be between 0 and 300');
    seconds = String(input.seconds);
  }
  const key = input.key;
  await inTransaction(deps.database.db, async (tx) => {
    await writeDelay(tx, { level, key, phase, seconds });
    await auditRisk(tx, {
      actor,
      action: 'risk.delay',
      subject: `risk_delay:${level}:${key}`,
      details: { phase, seconds },
    });
  });
  deps.book.invalidate();
  return listDelays(deps);
}

/** All risk settings at once, for `bookie risk show` and the operator API. */
export async function riskSettings(deps: Pick<RiskDeps, 'database'>) {
  const [limits, groups, delays] = await Promise.all([listLimits(deps), listGroups(deps), listDelays(deps)]);
  return { limits, groups, delays, phases: PHASES };
}
