import { BoundedMemo, parseDecimal, type Rational, type RiskGroup } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { playerRiskKey } from './player-risk.repo.js';
import { readGroups } from './risk-group.repo.js';
import { type DelayRow, type LimitRow, readDelays, readLimits } from './risk-settings.repo.js';

/** The limits, groups and delays as read at one moment (D34, D38). */
export interface RiskSettingsSnapshot {
  /** Limits by white label. */
  limits: ReadonlyMap<string, readonly LimitRow[]>;
  /** Groups by name. */
  groups: ReadonlyMap<string, RiskGroup>;
  delays: readonly DelayRow[];
}

/** Limits parsed once per text (a limit is read for every leg of every decision; a refused text is not kept). */
const parsedLimits = new BoundedMemo<Rational>(10_000);
const dec = (s: string, field: string): Rational =>
  parsedLimits.get(s) ?? parsedLimits.keep(s, parseDecimal(s, { field, maxDecimals: 12 }));

/** Players whose group one process keeps at most. */
const MAX_PLAYERS = 100_000;

/**
 * The risk settings of this process, read from the database and kept for `RISK_SETTINGS_CACHE_MS`: a change made
 * through this process takes effect at once ({@link invalidate}), one made through another process within that time.
 * Players' groups are kept the same way.
 */
export class RiskBook {
  private snapshot: RiskSettingsSnapshot | undefined;
  private readAt = 0;
  private loading: Promise<RiskSettingsSnapshot> | undefined;
  private readonly players = new Map<string, { group: string; at: number }>();

  constructor(
    private readonly db: Executor,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** The current settings. */
  async get(): Promise<RiskSettingsSnapshot> {
    if (this.snapshot && this.now() - this.readAt < this.ttlMs) return this.snapshot;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** Forgets the cached settings (after a change). */
  invalidate(): void {
    this.snapshot = undefined;
  }

  /**
   * A player's group as this process last read or set it, while fresh (the same time as the settings): placement
   * then needs no statement to know it. Undefined: read it (the hold records a first request and answers it).
   */
  playerGroup(whiteLabelId: string, playerId: string): string | undefined {
    const key = playerRiskKey(whiteLabelId, playerId);
    const known = this.players.get(key);
    if (!known) return undefined;
    if (this.now() - known.at < this.ttlMs) return known.group;
    this.players.delete(key);
    return undefined;
  }

  /** Remembers a player's group as just read or set (a change through this process takes effect at once). */
  rememberPlayerGroup(whiteLabelId: string, playerId: string, group: string): void {
    const key = playerRiskKey(whiteLabelId, playerId);
    this.players.delete(key);
    // the oldest entries go first past the bound (a Map iterates in insertion order)
    while (this.players.size >= MAX_PLAYERS) {
      const oldest = this.players.keys().next().value as string;
      this.players.delete(oldest);
    }
    this.players.set(key, { group, at: this.now() });
  }

  private async load(): Promise<RiskSettingsSnapshot> {
    const [limitRows, groupRows, delays] = await Promise.all([
      readLimits(this.db),
      readGroups(this.db),
      readDelays(this.db),
    ]);
    const limits = new Map<string, LimitRow[]>();
    for (const l of limitRows) limits.set(l.white_label_id, [...(limits.get(l.white_label_id) ?? []), l]);
    const groups = new Map<string, RiskGroup>(
      groupRows.map((g) => [
        g.name,
        {
          name: g.name,
          stakeFactor: dec(g.stake_factor, 'stake_factor'),
          ...(g.max_payout_eur !== null ? { maxPayoutEur: dec(g.max_payout_eur, 'max_payout_eur') } : {}),
        },
      ]),
    );
    const snapshot = { limits, groups, delays };
    this.snapshot = snapshot;
    this.readAt = this.now();
    return snapshot;
  }
}

/** The liability limit of an outcome: the market type's own limit, else the white label's `*` limit, else none. */
export function liabilityLimitOf(
  settings: RiskSettingsSnapshot,
  whiteLabelId: string,
  marketTypeId: string,
  phase: 'live' | 'prematch',
) {
  const rows = settings.limits.get(whiteLabelId) ?? [];
  const own = rows.find((r) => r.market_type_id === marketTypeId && r.phase === phase);
  const any = own ?? rows.find((r) => r.market_type_id === '*' && r.phase === phase);
  return any ? dec(any.liability_eur, 'liability_eur') : undefined;
}
