/**
 * The bets of the replay's partner-reported white labels (docs/adr/0023-mts-and-advisory.md): a second white label
 * takes bets in its own bet slip and asks Bookie's risk decision for each (`POST /bets`) — some mixed combos with a
 * foreign selection it settles itself (`PATCH /bets/{bet_id}`), some it then declines on its side (`DELETE /bets`)
 * — and a third only reports its bets for advice (`POST /bets/advisory`, then `PUT` with the final state). A small
 * callback server stands for the second white label's partner: it records `/bet/settle` and `/bet/unsettle`, and the
 * check compares what it received with each bet's settlement at Bookie.
 *
 * @packageDocumentation
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { add, formatMoney, parseDecimal, sub, ZERO } from '@bookie/core';
import { BookieClient } from '@bookie/sdk';
import type { Dispatcher } from 'undici';
import { callJson } from './clients.js';
import { Rng } from './prng.js';
import type { ScriptStep, SeasonScript } from './season-script.js';

/** A white label that reports its bets, and its OAuth client. */
export interface ReportingWhiteLabel {
  whiteLabelId: string;
  clientId: string;
  clientSecret: string;
}

/** What the report says of the reported bets. */
export interface ReportedBetsReport {
  mts: {
    reported: number;
    accepted: number;
    declined: number;
    mixed_combos: number;
    withdrawn: number;
    settled: number;
    /** Every settled bet's settle callbacks add up to its settlement; withdrawn bets got none. */
    callbacks_match: boolean;
  };
  advisory: { reported: number; advised: number; updated: number };
  problems: string[];
}

interface MtsBet {
  id: string;
  sportEventId: string;
  foreignId?: string;
  accepted: boolean;
  withdrawn: boolean;
}

const WITHDRAW_EVERY = 7;
const MIXED_EVERY = 3;

/** Runs the reported bets of a replay alongside its timeline (see the package documentation). */
export class ReportedBets {
  private readonly mtsBets: MtsBet[] = [];
  private readonly advisoryBets = new Map<string, { id: string; body: Record<string, unknown> }>();
  private readonly received = new Map<string, { settled: ReturnType<typeof parseDecimal>; calls: number }>();
  private server?: Server;
  private readonly mtsClient?: BookieClient;
  private readonly advisoryClient?: BookieClient;
  private advised = 0;
  private updated = 0;
  private declined = 0;

  constructor(
    private readonly opts: {
      baseUrl: string;
      adminToken: string;
      dispatcher: Dispatcher;
      script: SeasonScript;
      seed: string;
      mts?: ReportingWhiteLabel;
      advisory?: ReportingWhiteLabel;
      /** Report on every n-th match (default 4). */
      every?: number;
    },
  ) {
    const client = (wl: ReportingWhiteLabel) =>
      new BookieClient({
        baseUrl: opts.baseUrl,
        clientId: wl.clientId,
        clientSecret: wl.clientSecret,
        dispatcher: opts.dispatcher,
      });
    if (opts.mts) this.mtsClient = client(opts.mts);
    if (opts.advisory) this.advisoryClient = client(opts.advisory);
  }

  /** Starts the MTS white label's callback server and points the white label at it. */
  async start(): Promise<void> {
    if (!this.opts.mts) return;
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        try {
          const json = JSON.parse(body) as Record<string, string>;
          const id = String(json.bet_id);
          const r = this.received.get(id) ?? { settled: ZERO, calls: 0 };
          if (req.url === '/bet/settle')
            r.settled = add(r.settled, parseDecimal(json.settle_amount, { field: 'x' }));
          if (req.url === '/bet/unsettle')
            r.settled = sub(r.settled, parseDecimal(json.unsettle_amount, { field: 'x' }));
          r.calls++;
          this.received.set(id, r);
        } catch {
          // heartbeats and other callbacks carry no bet
        }
        res.writeHead(204);
        res.end();
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    await callJson(
      this.opts.dispatcher,
      'PATCH',
      `${this.opts.baseUrl}/admin/white-labels/${this.opts.mts.whiteLabelId}`,
      {
        token: this.opts.adminToken,
        body: { callback_url: url },
      },
    );
  }

  private chosen(step: ScriptStep): boolean {
    return step.match % (this.opts.every ?? 4) === 0;
  }

  /** After a trading step: reports bets once an event has its closing odds, settles them once it ended. */
  async afterStep(step: ScriptStep): Promise<void> {
    if (!this.chosen(step)) return;
    if (step.step === 'closing_odds') await this.report(step);
    if (step.step === 'ended') await this.settle(step);
  }

  private async report(step: ScriptStep): Promise<void> {
    const match = this.opts.script.matches[step.match];
    const market = match?.finalMarkets[0];
    const odd = market ? Object.values(market.odds)[0] : undefined;
    if (!market || !odd) return;
    const selection = {
      sport_event_id: step.sportEventId,
      market_id: market.id,
      odd_id: odd.id,
      value: odd.value,
    };
    const rng = new Rng(`${this.opts.seed}/reported/${step.match}`);
    const stake = { value: String(1 + Math.floor(rng.next() * 50)), currency_code: 'EUR' };
    const created_at = new Date().toISOString();
    if (this.mtsClient) {
      const token = await this.mtsClient.accessToken();
      const id = `mts-${step.match}`;
      const mixed = (step.match / (this.opts.every ?? 4)) % MIXED_EVERY === 1;
      const foreignId = mixed ? `local-${step.match}` : undefined;
      const answer = await callJson<{ bet: { status: { code: number } } }>(
        this.opts.dispatcher,
        'POST',
        `${this.opts.baseUrl}/bets`,
        {
          token,
          body: {
            bet_id: id,
            player_id: `mts-player-${step.match % 13}`,
            type: mixed ? { code: 1, system_sizes: [2] } : { code: 0, system_sizes: [1] },
            stake,
            selections: [selection],
            ...(foreignId
              ? { foreign_selections: [{ id: foreignId, value: '1.9', sport_event_title: 'Local cup' }] }
              : {}),
            odds_strategy: 3,
            created_at,
          },
        },
      );
      const accepted = answer.bet.status.code === 1;
      if (!accepted) this.declined++;
      const withdrawn = accepted && !mixed && (step.match / (this.opts.every ?? 4)) % WITHDRAW_EVERY === 2;
      if (withdrawn) {
        await callJson(this.opts.dispatcher, 'DELETE', `${this.opts.baseUrl}/bets`, {
          token,
          body: { bet_id: id, reason: 'payment failed' },
        });
      }
      this.mtsBets.push({
        id,
        sportEventId: step.sportEventId,
        ...(foreignId ? { foreignId } : {}),
        accepted,
        withdrawn,
      });
    }
    if (this.advisoryClient) {
      const token = await this.advisoryClient.accessToken();
      const body = {
        bet_id: `adv-${step.match}`,
        site_id: 'replay',
        type: { code: 0, system_sizes: [1] },
        stake,
        selections: [selection],
        player_id: `adv-player-${step.match % 13}`,
        created_at,
      };
      const answer = await callJson<{ restrictions: unknown[] }>(
        this.opts.dispatcher,
        'POST',
        `${this.opts.baseUrl}/bets/advisory`,
        { token, body },
      );
      if (answer.restrictions.length > 0) this.advised++;
      this.advisoryBets.set(step.sportEventId, { id: body.bet_id, body });
    }
  }

  private async settle(step: ScriptStep): Promise<void> {
    const rng = new Rng(`${this.opts.seed}/foreign/${step.match}`);
    for (const b of this.mtsBets) {
      if (b.sportEventId !== step.sportEventId || !b.foreignId || !b.accepted || !this.mtsClient) continue;
      await callJson(this.opts.dispatcher, 'PATCH', `${this.opts.baseUrl}/bets/${b.id}`, {
        token: await this.mtsClient.accessToken(),
        body: { foreign_selections: [{ id: b.foreignId, status: rng.next() < 0.5 ? 1 : 2 }] },
      });
    }
    const adv = this.advisoryBets.get(step.sportEventId);
    if (adv && this.advisoryClient) {
      const ev = await callJson<{
        sport_event: { markets: Record<string, { odds: Record<string, { status: number }> }> };
      }>(this.opts.dispatcher, 'GET', `${this.opts.baseUrl}/trading/sport-events/${step.sportEventId}`, {
        token: this.opts.adminToken,
      });
      const sel = (adv.body.selections as Array<{ market_id: string; odd_id: string }>)[0] as {
        market_id: string;
        odd_id: string;
      };
      const status = ev.sport_event.markets[sel.market_id]?.odds[sel.odd_id]?.status ?? 0;
      await callJson(this.opts.dispatcher, 'PUT', `${this.opts.baseUrl}/bets/advisory/${adv.id}`, {
        token: await this.advisoryClient.accessToken(),
        body: {
          status: { code: 3 },
          selections: [{ ...sel, ...(adv.body.selections as object[])[0], status }],
        },
      });
      this.updated++;
    }
  }

  /** Checks the MTS bets against the callbacks received (after settlement and the outbox drained); stops. */
  async finish(): Promise<ReportedBetsReport> {
    const problems: string[] = [];
    let settled = 0;
    if (this.mtsClient) {
      const token = await this.mtsClient.accessToken();
      for (const b of this.mtsBets) {
        if (!b.accepted) continue;
        const bet = await callJson<{
          status: { code: number };
          settlement: { settle_amount: string } | null;
        }>(this.opts.dispatcher, 'GET', `${this.opts.baseUrl}/bets/${b.id}`, { token });
        const got = this.received.get(b.id);
        if (b.withdrawn) {
          if (bet.status.code !== 2)
            problems.push(`withdrawn MTS bet ${b.id} shows status ${bet.status.code}`);
          if (got) problems.push(`withdrawn MTS bet ${b.id} got ${got.calls} callbacks`);
          continue;
        }
        if (!bet.settlement) {
          problems.push(`MTS bet ${b.id} is not settled (status ${bet.status.code})`);
          continue;
        }
        settled++;
        const sum = formatMoney(got?.settled ?? ZERO);
        if (sum !== bet.settlement.settle_amount)
          problems.push(
            `MTS bet ${b.id}: callbacks add up to ${sum}, Bookie settled ${bet.settlement.settle_amount}`,
          );
      }
    }
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    return {
      mts: {
        reported: this.mtsBets.length,
        accepted: this.mtsBets.filter((b) => b.accepted).length,
        declined: this.declined,
        mixed_combos: this.mtsBets.filter((b) => b.foreignId && b.accepted).length,
        withdrawn: this.mtsBets.filter((b) => b.withdrawn).length,
        settled,
        callbacks_match: problems.length === 0,
      },
      advisory: { reported: this.advisoryBets.size, advised: this.advised, updated: this.updated },
      problems,
    };
  }
}
