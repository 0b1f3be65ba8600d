/** Before the timeline: the players' first deposits and sessions, the feed replica, the white label's settings. */
import { callJson } from './clients.js';
import { mapLimit } from './pacing.js';
import type { ReplayRun } from './replay-run.js';
import { configureRiskLimits } from './risk-report.js';

/**
 * The players: a first deposit at the wallet and a session at Bookie each; then the feed replica and the partner's
 * reported bets start, and the white label gets the run's liability limit and live bet delay.
 */
export async function setUpReplay(run: ReplayRun): Promise<void> {
  const { target, options, seed, currency, signal, sessions, deposits, replica, reported } = run;
  const { everyone } = run.planned;
  const { base, agent, partner, wallet } = run.clients;
  const inPlay = options.inPlay;
  await mapLimit(everyone, 8, async (b) => {
    signal?.throwIfAborted();
    await wallet.deposit(b.id, b.deposit, currency, `replay-${seed}-first-${b.id}`);
    deposits.set(b.id, [b.deposit]);
    const t = await partner.createPlayerToken({
      locale: 'en',
      currency,
      player_id: b.id,
      params: { player: b.id, currency },
    });
    sessions[b.index] = t.token;
  });
  await replica.start();
  await replica.waitFor(0n, 30_000);
  await reported?.start();
  if (options.riskLimitEur && target.whiteLabelId) {
    await configureRiskLimits(agent, base, target.adminToken, target.whiteLabelId, options.riskLimitEur);
  }
  if (inPlay) {
    // live bets wait out a bet delay (D34): what the market does meanwhile decides them
    if (!target.whiteLabelId) throw new Error('the in-play replay needs the white label id');
    await callJson(agent, 'PATCH', `${base}/admin/white-labels/${target.whiteLabelId}`, {
      token: target.adminToken,
      body: { bet_delay: inPlay.betDelayS ?? 1 },
    });
  }
}
