import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { countInsuranceOpenItems } from '../bonuses/index.js';
import type { MetricsDeps } from './deps.js';
import {
  callbackQueue,
  exposureBySport,
  quarantinedEntries,
  settlementPosition,
  unsupportedOptionalCallbacks,
} from './metrics.repo.js';

/** The class of an HTTP status for labels: `2xx` … `5xx`, or `error` when no answer came (timeout, refused). */
export function statusClass(status: number | null): string {
  if (status === null || status < 100 || status > 599) return 'error';
  return `${Math.floor(status / 100)}xx`;
}

/**
 * The Prometheus metrics of one process (docs/adr/0025-scale-out.md), in their own registry. Counters are counted
 * as things happen in this process; the rest is read at each scrape (the outbox, settlement and exposure from the
 * database, shared by every process; the feed and leadership from this process). Label values are bounded sets —
 * white labels, sports, roles, modes, states, status classes — never a player, bet or request id.
 */
export class BookieMetrics {
  readonly registry = new Registry();
  private readonly bets: Counter<'mode' | 'outcome'>;
  private readonly decision: Histogram<'mode'>;
  private readonly attempts: Counter<'path' | 'status_class'>;

  constructor(private readonly deps: MetricsDeps) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // gauges named like counters, which `promtool check metrics` rejects; the per-type gauges without the suffix
    // (nodejs_active_handles, …) carry the same numbers
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ])
      this.registry.removeSingleMetric(name);
    this.bets = new Counter({
      name: 'bookie_bets_total',
      help: 'Bets decided by this process, by white label mode and outcome (the bet state after placement).',
      labelNames: ['mode', 'outcome'],
      registers,
    });
    this.decision = new Histogram({
      name: 'bookie_bet_decision_seconds',
      help: 'Time from a bet request to its decision (accepted or declined), seconds.',
      labelNames: ['mode'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.attempts = new Counter({
      name: 'bookie_callback_attempts_total',
      help: 'Calls to partner servers from this process, by callback path and answer status class.',
      labelNames: ['path', 'status_class'],
      registers,
    });
    const db = deps.database.db;
    const onError = (what: string) => (err: unknown) =>
      deps.logger.warn({ err }, `metrics: reading ${what} failed`);
    new Gauge({
      name: 'bookie_callback_queue_depth',
      help: 'Callbacks waiting to be delivered, per white label (all processes).',
      labelNames: ['white_label'],
      registers,
      async collect() {
        const rows = await callbackQueue(db).catch(onError('the outbox'));
        if (!rows) return;
        this.reset();
        for (const r of rows) this.set({ white_label: r.whiteLabelId }, r.depth);
        oldest.reset();
        for (const r of rows) oldest.set({ white_label: r.whiteLabelId }, r.oldestAgeS);
      },
    });
    const oldest = new Gauge({
      name: 'bookie_callback_oldest_pending_seconds',
      help: 'Age of the oldest callback waiting to be delivered, per white label, seconds.',
      labelNames: ['white_label'],
      registers,
    });
    new Gauge({
      name: 'bookie_optional_callback_unsupported',
      help: 'Optional callbacks a white label answered 404, 405 or 501 (1 each): Bookie no longer relies on them.',
      labelNames: ['white_label', 'callback'],
      registers,
      async collect() {
        const rows = await unsupportedOptionalCallbacks(db).catch(onError('the optional callbacks'));
        if (!rows) return;
        this.reset();
        for (const r of rows) this.set({ white_label: r.whiteLabelId, callback: r.callback }, 1);
      },
    });
    new Gauge({
      name: 'bookie_insurance_open_items',
      help:
        'Insurance refunds the operator must settle by hand, per white label and kind: refund_kept_not_earned (a refund ' +
        'that could not be taken back, no longer earned) and refund_not_paid (an earned refund the partner refused).',
      labelNames: ['white_label', 'kind'],
      registers,
      async collect() {
        const rows = await countInsuranceOpenItems(db).catch(onError('the insurance open items'));
        if (!rows) return;
        this.reset();
        for (const r of rows) this.set({ white_label: r.whiteLabelId, kind: r.kind }, r.count);
      },
    });
    const hub = deps.hub;
    new Gauge({
      name: 'bookie_feed_head_version',
      help: 'The highest log version this process has read.',
      registers,
      collect() {
        if (hub) this.set(Number(hub.head));
      },
    });
    new Gauge({
      name: 'bookie_feed_subscribers',
      help: 'Followers of the log in this process (/log streams and in-process followers).',
      registers,
      collect() {
        if (hub) this.set(hub.followerStats().count);
      },
    });
    new Gauge({
      name: 'bookie_feed_subscriber_lag_max_versions',
      help: 'How far the furthest-behind follower of this process is from the head, in versions.',
      registers,
      collect() {
        if (hub) this.set(Number(hub.followerStats().maxLag));
      },
    });
    const quarantine = new Gauge({
      name: 'bookie_settlement_quarantined_entries',
      help: 'Log entries settlement gave up on and keeps in quarantine (operator action needed).',
      registers,
    });
    new Gauge({
      name: 'bookie_settlement_lag_versions',
      help: 'Versions between the log head and the last entry settlement saved as processed.',
      registers,
      async collect() {
        const p = await settlementPosition(db).catch(onError('the settlement position'));
        if (p) this.set(Number(p.head > p.processed ? p.head - p.processed : 0n));
        const q = await quarantinedEntries(db).catch(onError('the quarantine'));
        if (q !== undefined) quarantine.set(q);
      },
    });
    if (deps.exposure) {
      new Gauge({
        name: 'bookie_exposure_eur',
        help: 'Exposure kept by the risk engine, EUR, per sport and phase (prematch or live).',
        labelNames: ['sport', 'phase'],
        registers,
        async collect() {
          const rows = await exposureBySport(db).catch(onError('exposure'));
          if (!rows) return;
          this.reset();
          for (const r of rows) this.set({ sport: r.sport, phase: r.phase }, r.amount);
        },
      });
    }
    new Gauge({
      name: 'bookie_leader',
      help: 'Whether this process leads a one-process role (1) or follows (0).',
      labelNames: ['role'],
      registers,
      collect() {
        this.reset();
        for (const l of deps.leases?.() ?? []) this.set({ role: l.role }, l.isLeader ? 1 : 0);
        if (deps.settlementLeader) this.set({ role: 'settlement' }, deps.settlementLeader() ? 1 : 0);
      },
    });
  }

  /** Counts a bet decided by this process (placement's end) and its decision time. */
  betDecided(bet: { whiteLabelId: string; state: string; createdAt: Date; decidedAt: Date | null }): void {
    const count = (mode: string) => {
      this.bets.inc({ mode, outcome: bet.state });
      if (bet.decidedAt) {
        this.decision.observe(
          { mode },
          Math.max(0, bet.decidedAt.getTime() - bet.createdAt.getTime()) / 1000,
        );
      }
    };
    const modeOf = this.deps.modeOf;
    if (modeOf) modeOf(bet.whiteLabelId).then(count, () => count('unknown'));
    else count('unknown');
  }

  /** Counts one call to a partner server and its answer. */
  callbackAttempt(path: string, status: number | null): void {
    this.attempts.inc({ path, status_class: statusClass(status) });
  }

  /** The exposition text and its content type. */
  async expose(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
