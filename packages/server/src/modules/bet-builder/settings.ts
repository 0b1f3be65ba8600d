import type { BuilderSettingsBody, BuilderSettingsView } from '@bookie/contracts';
import {
  type BuilderSettings,
  compare,
  DomainError,
  formatMoney,
  MAX_BUILDER_LEGS,
  ONE,
  parseDecimal,
  type Rational,
  rational,
  validationError,
} from '@bookie/core';
import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { auditRisk } from '../risk/index.js';
import { findWhiteLabel } from '../tenants/index.js';
import {
  type BuilderSettingsRowDb,
  builderSettingsOf,
  listBuilderSettings,
  writeBuilderSettings,
} from './bet-builder.repo.js';
import type { BuilderSettingsDeps } from './deps.js';

/** The builder margin of a white label without its own: 0.1, 10 % (offered odds = fair odds / 1.1). */
export const DEFAULT_BUILDER_MARGIN: Rational = rational(1n, 10n);
/** The most legs of a white label without its own setting: core's upper bound. */
export const DEFAULT_BUILDER_MAX_LEGS = MAX_BUILDER_LEGS;

const parseMargin = (v: string): Rational => parseDecimal(v, { field: 'margin', maxDecimals: 6 });

function applied(row: BuilderSettingsRowDb | undefined): { margin: string; maxLegs: number } {
  return {
    margin: formatMoney(row?.margin ? parseMargin(row.margin) : DEFAULT_BUILDER_MARGIN),
    maxLegs: row?.max_legs ?? DEFAULT_BUILDER_MAX_LEGS,
  };
}

/**
 * A white label's builder settings as pricing takes them (core's `BuilderSettings`): its own margin and most legs, or
 * the defaults ({@link DEFAULT_BUILDER_MARGIN}, {@link DEFAULT_BUILDER_MAX_LEGS}) for what it has not set. The one
 * place placement, MTS, advisory and the calculator read them.
 */
export async function builderSettings(
  deps: BuilderSettingsDeps,
  whiteLabelId: string,
): Promise<BuilderSettings> {
  const a = applied(await builderSettingsOf(deps.database.db, whiteLabelId));
  return { margin: parseMargin(a.margin), maxLegs: a.maxLegs };
}

/**
 * {@link builderSettings} kept `cacheMs` per white label (`RISK_SETTINGS_CACHE_MS`, as the cash-out margin) before it is
 * read again: a change applies in every process within that time.
 */
export function cachedBuilderSettings(
  database: Database,
  clock: Clock,
  cacheMs: number,
): (whiteLabelId: string) => Promise<BuilderSettings> {
  const cache = new Map<string, { at: number; settings: BuilderSettings }>();
  return async (whiteLabelId) => {
    const hit = cache.get(whiteLabelId);
    if (hit && clock.now() - hit.at < cacheMs) return hit.settings;
    const settings = await builderSettings({ database }, whiteLabelId);
    cache.set(whiteLabelId, { at: clock.now(), settings });
    return settings;
  };
}

/** The builder settings as the operator API and `bookie risk bet-builder` show them. */
export async function builderSettingsView(database: Database): Promise<BuilderSettingsView> {
  return {
    default_margin: formatMoney(DEFAULT_BUILDER_MARGIN),
    default_max_legs: DEFAULT_BUILDER_MAX_LEGS,
    settings: (await listBuilderSettings(database.db)).map((r) => {
      const a = applied(r);
      return { white_label_id: r.white_label_id, margin: a.margin, max_legs: a.maxLegs };
    }),
  };
}

/**
 * Sets a white label's builder margin and/or most legs. The margin is a decimal string in [0, 1) with at most 6
 * decimals; most legs an integer 1..10; `null` removes the white label's own value (the default applies again); an
 * absent field stays as it is. Audited (`risk.bet_builder_settings`) in the same transaction; prices of every process
 * use it within `RISK_SETTINGS_CACHE_MS`.
 *
 * @throws DomainError validation_error naming `white_label_id`, `margin` or `max_legs`; not_found for an unknown white
 * label.
 */
export async function setBuilderSettings(
  database: Database,
  input: { [K in keyof BuilderSettingsBody]?: unknown },
  actor: string,
): Promise<BuilderSettingsView> {
  const wl = input.white_label_id;
  if (typeof wl !== 'string' || wl === '' || wl.length > 64)
    throw validationError('white_label_id', 'must be a white label id');
  let margin: string | null | undefined;
  if (input.margin === null) margin = null;
  else if (input.margin !== undefined) {
    if (typeof input.margin !== 'string') throw validationError('margin', 'must be a decimal string or null');
    const m = parseMargin(input.margin);
    if (compare(m, ONE) >= 0) throw validationError('margin', 'must be at least 0 and below 1');
    margin = formatMoney(m);
  }
  let maxLegs: number | null | undefined;
  if (input.max_legs === null) maxLegs = null;
  else if (input.max_legs !== undefined) {
    const n = input.max_legs;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_BUILDER_LEGS)
      throw validationError('max_legs', `must be an integer from 1 to ${MAX_BUILDER_LEGS}`);
    maxLegs = n;
  }
  if (margin === undefined && maxLegs === undefined)
    throw validationError('margin', 'give margin or max_legs (null removes one)');
  await inTransaction(database.db, async (tx) => {
    if (!(await findWhiteLabel(tx, wl)))
      throw new DomainError('not_found', `white label ${wl} not found`, { white_label_id: wl });
    const now = await builderSettingsOf(tx, wl);
    const next = {
      white_label_id: wl,
      margin: margin === undefined ? (now?.margin ?? null) : margin,
      max_legs: maxLegs === undefined ? (now?.max_legs ?? null) : maxLegs,
    };
    await writeBuilderSettings(tx, next);
    await auditRisk(tx, {
      actor,
      action: 'risk.bet_builder_settings',
      subject: `white_label:${wl}`,
      details: { margin: next.margin, max_legs: next.max_legs },
    });
  });
  return builderSettingsView(database);
}
