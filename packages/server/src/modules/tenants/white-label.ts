import {
  type CreateWhiteLabelBody,
  OPTIONAL_CALLBACKS,
  type OptionalCallback,
  type OptionalCallbackState,
  type OptionalCallbacksInput,
  type OptionalCallbacksView,
  optionalCallbackSupported,
  type WhiteLabelMode,
  type WhiteLabelView,
} from '@bookie/contracts';
import { compare, formatMoney, parseMoney, validationError } from '@bookie/core';
import type {
  OauthCredentialTable,
  Selectable,
  StoredOptionalCallbacks,
  WhiteLabelTable,
} from '../../db/schema.js';
import { parseAllowedOrigins } from './allowed-origins.js';
import { parseAllowlist } from './allowlist.js';

/** A white label as the rest of the server sees it. Money limits are 6-decimal strings (D1). */
export interface WhiteLabel {
  id: string;
  name: string;
  mode: WhiteLabelMode;
  currencies: string[];
  /** Base URL of the partner's callback server; null until announced. */
  callbackUrl: string | null;
  /** Stake and payout limits; null = no limit. The express cap of D17 applies on top of maxPayout. */
  limits: { minStake: string | null; maxStake: string | null; maxPayout: string | null };
  /** Seconds a player must wait between two bets (restriction `bet_interval`); 0 = none. */
  betIntervalS: number;
  /** Seconds a bet waits before it is accepted (bet delay); 0 = none. */
  betDelayS: number;
  /** IPv4/IPv6/CIDR entries allowed to call partner routes; empty = none. */
  allowlist: string[];
  /** Web origins allowed to call the frame API from a browser (CORS, D49); empty = none. */
  allowedOrigins: string[];
  /** Callback signing (D11). */
  signing: {
    enabled: boolean;
    secret: string;
    previousSecret: string | null;
    previousSecretUntil: Date | null;
  };
  /** Sends `/bet/insurances/cancel` unless the white label opted out (the insurance refund rule). */
  insuranceCancelCallbacks?: boolean;
  /** Its optional callbacks: what the partner announced and what Bookie learnt (the optional callbacks rule). */
  optionalCallbacks: Record<OptionalCallback, OptionalCallbackStatus>;
  createdAt: Date;
  updatedAt: Date;
}

/** One optional callback of a white label: the announcement, what was learnt, and when. */
export interface OptionalCallbackStatus extends OptionalCallbackState {
  learntAt: Date | null;
  lastStatus: number | null;
}

export type WhiteLabelRow = Selectable<WhiteLabelTable>;

/**
 * The optional callbacks of a white label from its row. `insurance_cancel` is announced by the
 * `insurance_cancel_callbacks` column (on by default; false opts out).
 */
export function optionalCallbacksOf(
  stored: StoredOptionalCallbacks | null,
  insuranceCancel: boolean,
): Record<OptionalCallback, OptionalCallbackStatus> {
  const out = {} as Record<OptionalCallback, OptionalCallbackStatus>;
  for (const name of OPTIONAL_CALLBACKS) {
    const s = stored?.[name] ?? {};
    out[name] = {
      announced: name === 'insurance_cancel' ? insuranceCancel : (s.announced ?? null),
      learnt: s.learnt ?? 'unknown',
      learntAt: s.learnt_at ? new Date(s.learnt_at) : null,
      lastStatus: s.last_status ?? null,
    };
  }
  return out;
}

/** The inverse of {@link optionalCallbacksOf}: a white label's optional callbacks as the column stores them. */
export function storedOptionalCallbacks(wl: Pick<WhiteLabel, 'optionalCallbacks'>): StoredOptionalCallbacks {
  const out: StoredOptionalCallbacks = {};
  for (const name of OPTIONAL_CALLBACKS) {
    const c = wl.optionalCallbacks[name];
    out[name] = {
      announced: c.announced,
      learnt: c.learnt,
      learnt_at: c.learntAt?.toISOString() ?? null,
      last_status: c.lastStatus,
    };
  }
  return out;
}

/** Whether Bookie relies on an optional callback of this white label (see `optionalCallbackSupported`). */
export function supportsCallback(wl: Pick<WhiteLabel, 'optionalCallbacks'>, name: OptionalCallback): boolean {
  return optionalCallbackSupported(name, wl.optionalCallbacks[name]);
}

/** The optional callbacks as the views show them. */
export function optionalCallbacksView(wl: Pick<WhiteLabel, 'optionalCallbacks'>): OptionalCallbacksView {
  const out = {} as OptionalCallbacksView;
  for (const name of OPTIONAL_CALLBACKS) {
    const c = wl.optionalCallbacks[name];
    out[name] = {
      announced: c.announced,
      learnt: c.learnt,
      learnt_at: c.learntAt ? c.learntAt.toISOString() : null,
      last_status: c.lastStatus,
      supported: optionalCallbackSupported(name, c),
    };
  }
  return out;
}

/**
 * The stored `optional_callbacks` after an announcement: each name given takes its new announcement, and announcing
 * a callback (`true`) forgets that it was learnt unsupported. `insurance_cancel` lives in its own column and is
 * returned apart (`null` = the default, on).
 */
export function announce(
  stored: StoredOptionalCallbacks | null,
  input: OptionalCallbacksInput,
): { stored: StoredOptionalCallbacks; insuranceCancel?: boolean } {
  const next: StoredOptionalCallbacks = { ...(stored ?? {}) };
  let insuranceCancel: boolean | undefined;
  for (const name of OPTIONAL_CALLBACKS) {
    const a = input[name];
    if (a === undefined) continue;
    if (name === 'insurance_cancel') {
      insuranceCancel = a !== false;
      if (a === true) next[name] = { announced: true };
      continue;
    }
    next[name] = a === true ? { announced: true } : { ...(next[name] ?? {}), announced: a };
  }
  return { stored: next, ...(insuranceCancel !== undefined ? { insuranceCancel } : {}) };
}
export type CredentialRow = Selectable<OauthCredentialTable>;

function money(v: string | null): string | null {
  return v === null ? null : formatMoney(parseMoney(v, 'limit'));
}

/** Row → domain object. */
export function toWhiteLabel(r: WhiteLabelRow): WhiteLabel {
  return {
    id: r.id,
    name: r.name,
    mode: r.mode,
    currencies: r.currencies,
    callbackUrl: r.callback_url,
    limits: { minStake: money(r.min_stake), maxStake: money(r.max_stake), maxPayout: money(r.max_payout) },
    betIntervalS: r.bet_interval_s,
    betDelayS: r.bet_delay_s,
    allowlist: r.allowlist,
    allowedOrigins: r.allowed_origins,
    signing: {
      enabled: r.signing_enabled,
      secret: r.signing_secret,
      previousSecret: r.previous_signing_secret,
      previousSecretUntil: r.previous_signing_secret_until,
    },
    insuranceCancelCallbacks: r.insurance_cancel_callbacks ?? true,
    optionalCallbacks: optionalCallbacksOf(r.optional_callbacks, r.insurance_cancel_callbacks ?? true),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The admin view; `withSecret` adds the signing secret, `credentials` the credential list. */
export function whiteLabelView(
  wl: WhiteLabel,
  opts: { withSecret?: boolean; credentials?: CredentialRow[]; now?: number } = {},
): WhiteLabelView {
  const until = wl.signing.previousSecretUntil;
  const graceOpen = until !== null && (opts.now === undefined || until.getTime() > opts.now);
  return {
    id: wl.id,
    name: wl.name,
    mode: wl.mode,
    currencies: wl.currencies,
    callback_url: wl.callbackUrl,
    limits: { min_stake: wl.limits.minStake, max_stake: wl.limits.maxStake, max_payout: wl.limits.maxPayout },
    bet_interval: wl.betIntervalS,
    bet_delay: wl.betDelayS,
    allowlist: wl.allowlist,
    allowed_origins: wl.allowedOrigins,
    signing: {
      enabled: wl.signing.enabled,
      ...(opts.withSecret ? { secret: wl.signing.secret } : {}),
      previous_secret_valid_until: graceOpen && until ? until.toISOString() : null,
    },
    insurance_cancel_callbacks: supportsCallback(wl, 'insurance_cancel'),
    optional_callbacks: optionalCallbacksView(wl),
    ...(opts.credentials
      ? {
          credentials: opts.credentials.map((c) => ({
            client_id: c.client_id,
            created_at: new Date(c.created_at).toISOString(),
            revoked_at: c.revoked_at ? new Date(c.revoked_at).toISOString() : null,
          })),
        }
      : {}),
    created_at: wl.createdAt.toISOString(),
    updated_at: wl.updatedAt.toISOString(),
  };
}

/** Validated column values of a create or update (only the fields given). */
export type WhiteLabelChanges = Partial<
  Pick<
    WhiteLabelRow,
    | 'name'
    | 'mode'
    | 'currencies'
    | 'callback_url'
    | 'min_stake'
    | 'max_stake'
    | 'max_payout'
    | 'bet_interval_s'
    | 'bet_delay_s'
    | 'allowlist'
    | 'allowed_origins'
    | 'signing_enabled'
    | 'insurance_cancel_callbacks'
    | 'optional_callbacks'
  >
>;

function callbackUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('callback_url', `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError('callback_url', `must be http or https, got "${url.protocol}"`);
  }
  if (url.username || url.password) throw validationError('callback_url', 'must not carry credentials');
  if (url.search || url.hash) throw validationError('callback_url', 'must not have a query or fragment');
  return raw.replace(/\/+$/, '');
}

/**
 * Semantic checks of a (schema-valid) create or update body, and its column values: URL, exact money limits
 * (min ≤ max, checked against `current` limits on update), allowlist entries.
 */
export function toChanges(input: Partial<CreateWhiteLabelBody>, current?: WhiteLabel): WhiteLabelChanges {
  const c: WhiteLabelChanges = {};
  if (input.name !== undefined) {
    if (input.name.trim() === '') throw validationError('name', 'must not be blank');
    c.name = input.name.trim();
  }
  if (input.mode !== undefined) c.mode = input.mode;
  if (input.currencies !== undefined) c.currencies = [...input.currencies];
  if (input.callback_url !== undefined) c.callback_url = callbackUrl(input.callback_url);
  const lim = input.limits ?? {};
  const limit = (v: string | null | undefined, field: string) =>
    v === undefined ? undefined : v === null ? null : formatMoney(parseMoney(v, `limits.${field}`));
  const minStake = limit(lim.min_stake, 'min_stake');
  const maxStake = limit(lim.max_stake, 'max_stake');
  const maxPayout = limit(lim.max_payout, 'max_payout');
  if (minStake !== undefined) c.min_stake = minStake;
  if (maxStake !== undefined) c.max_stake = maxStake;
  if (maxPayout !== undefined) c.max_payout = maxPayout;
  const effMin = minStake !== undefined ? minStake : (current?.limits.minStake ?? null);
  const effMax = maxStake !== undefined ? maxStake : (current?.limits.maxStake ?? null);
  if (effMin !== null && effMax !== null) {
    if (compare(parseMoney(effMin, 'min_stake'), parseMoney(effMax, 'max_stake')) > 0) {
      throw validationError(
        minStake !== undefined ? 'limits.min_stake' : 'limits.max_stake',
        `min_stake ${effMin} is above max_stake ${effMax}`,
      );
    }
  }
  if (minStake === '0.000000') throw validationError('limits.min_stake', 'must be positive (or null)');
  if (maxStake === '0.000000') throw validationError('limits.max_stake', 'must be positive (or null)');
  if (maxPayout === '0.000000') throw validationError('limits.max_payout', 'must be positive (or null)');
  if (input.bet_interval !== undefined) c.bet_interval_s = input.bet_interval;
  if (input.bet_delay !== undefined) c.bet_delay_s = input.bet_delay;
  if (input.allowlist !== undefined) c.allowlist = parseAllowlist(input.allowlist);
  if (input.allowed_origins !== undefined) c.allowed_origins = parseAllowedOrigins(input.allowed_origins);
  if (input.signing_enabled !== undefined) c.signing_enabled = input.signing_enabled;
  if (input.insurance_cancel_callbacks !== undefined) {
    c.insurance_cancel_callbacks = input.insurance_cancel_callbacks;
  }
  if (input.optional_callbacks !== undefined) {
    const next = announce(current ? storedOptionalCallbacks(current) : {}, input.optional_callbacks);
    c.optional_callbacks = next.stored;
    if (next.insuranceCancel !== undefined) c.insurance_cancel_callbacks = next.insuranceCancel;
  }
  return c;
}
