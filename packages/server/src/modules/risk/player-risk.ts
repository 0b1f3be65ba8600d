import type { PlayerRiskView } from '@bookie/contracts';
import { DomainError, format, formatMoney, parseDecimal, riskScore, validationError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { RiskDeps } from './deps.js';
import { type PlayerRiskRow, readPlayerRisk, setPlayerGroup } from './player-risk.repo.js';
import { auditRisk } from './risk-settings.repo.js';

function view(deps: Pick<RiskDeps, 'book'>, playerId: string, row: PlayerRiskRow | undefined) {
  return async (): Promise<PlayerRiskView> => {
    const settings = await deps.book.get();
    const group = row?.group_name ?? 'default';
    const factor = settings.groups.get(group)?.stakeFactor ?? parseDecimal('1', { field: 'stake_factor' });
    const sum = parseDecimal(row?.clv_sum ?? '0', { field: 'clv_sum', maxDecimals: 12, allowNegative: true });
    const count = row?.clv_count ?? 0;
    return {
      player_id: playerId,
      score: format(riskScore(sum, count), 6),
      bets_scored: count,
      group,
      stake_factor: formatMoney(factor),
      group_source: row?.group_source ?? 'default',
    };
  };
}

/** A player's risk (D40): score from closing-line value, group and stake factor; unknown players read as default. */
export async function getPlayerRisk(
  deps: Pick<RiskDeps, 'database' | 'book'>,
  whiteLabelId: string,
  playerId: string,
): Promise<PlayerRiskView> {
  const row = await readPlayerRisk(deps.database.db, whiteLabelId, playerId);
  return view(deps, playerId, row)();
}

/**
 * Sets a player's risk group (D40): a partner (e.g. `blocked` for self-exclusion: the player's bets are then declined
 * `player_limit`) or the operator. Audited; counts as the player's first request (a later recommended_max_payout is
 * ignored).
 *
 * @throws DomainError validation_error naming `group` for an unknown group.
 */
export async function putPlayerRisk(
  deps: Pick<RiskDeps, 'database' | 'book'>,
  input: {
    whiteLabelId: string;
    playerId: string;
    group: string;
    source: 'partner' | 'operator';
    actor: string;
  },
): Promise<PlayerRiskView> {
  const settings = await deps.book.get();
  if (!settings.groups.has(input.group)) {
    throw validationError(
      'group',
      `unknown risk group "${input.group}" (${[...settings.groups.keys()].join(', ')})`,
    );
  }
  if (input.playerId.length === 0 || input.playerId.length > 128) {
    throw new DomainError('validation_error', 'player_id: must be 1–128 characters', { field: 'player_id' });
  }
  const row = await inTransaction(deps.database.db, async (tx) => {
    const r = await setPlayerGroup(tx, {
      whiteLabelId: input.whiteLabelId,
      playerId: input.playerId,
      group: input.group,
      source: input.source,
    });
    await auditRisk(tx, {
      actor: input.actor,
      action: 'risk.player_group',
      subject: `player:${input.whiteLabelId}:${input.playerId}`,
      details: { group: input.group },
    });
    return r;
  });
  deps.book.rememberPlayerGroup(input.whiteLabelId, input.playerId, row.group_name);
  return view(deps, input.playerId, row)();
}
