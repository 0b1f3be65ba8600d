import type { FramePlayerBonus } from '@bookie/contracts';
import type { PlayerSession } from '../../http/auth.js';
import type { BonusesDeps } from '../bonuses/index.js';
import { listBetBoosts, listFreebets, listInsurances } from '../bonuses/index.js';

/**
 * The bonuses the session's player can put on the next bet (the bet slip's choices): available freebets and
 * insurances, active bet boosts, newest first, at most 100 of each. Placement checks each again (spec 01).
 */
export async function playerBonuses(deps: BonusesDeps, session: PlayerSession): Promise<FramePlayerBonus[]> {
  if (!session.playerId) return [];
  const input = (status?: string) => ({
    whiteLabelId: session.whiteLabelId,
    query: { player_id: session.playerId, limit: '100', ...(status ? { status } : {}) },
  });
  const [freebets, insurances, boosts] = await Promise.all([
    listFreebets(deps, input('available')),
    listInsurances(deps, input('available')),
    listBetBoosts(deps, input()),
  ]);
  return [
    ...freebets.items
      .filter((f) => f.currency_code === session.currency)
      .map((f) => ({
        id: f.id,
        kind: 'freebet' as const,
        value: f.amount,
        currency: f.currency_code,
        expires_at: f.expires_at,
        name: `${f.amount} ${f.currency_code}`,
      })),
    ...insurances.items
      .filter((i) => i.currency_code === session.currency)
      .map((i) => ({
        id: i.id,
        kind: 'insurance' as const,
        value: (i.type === 'amount' ? i.amount : i.percent) ?? '0',
        currency: i.type === 'amount' ? i.currency_code : null,
        expires_at: i.expires_at,
        name: i.type === 'amount' ? `${i.amount} ${i.currency_code}` : `${i.percent} %`,
      })),
    ...boosts.items
      .filter((b) => b.status === 'active')
      .map((b) => ({
        id: b.id,
        kind: 'boost' as const,
        value: b.multiplier,
        currency: null,
        expires_at: b.expires_at,
        name: b.name,
      })),
  ];
}
