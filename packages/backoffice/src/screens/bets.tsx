import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { money } from '../format.js';
import { ErrorBox, fmtTime, Section, useAction, useLoad } from '../ui.js';
import { type Delivery, DeliveryTable } from './callbacks.js';

interface Bet {
  id: string;
  player_id: string;
  status: { code: number; reason: string | null };
  type: { code: number; system_sizes: number[] };
  stake: { value: string; currency_code: string };
  total_odds: string;
  selections: Array<{
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    value: string;
    requested_value: string;
    status: number;
  }>;
  created_at: string;
  accepted_at: string | null;
  settlement: {
    payout: string;
    settle_amount: string;
    settle_type: number;
    settled_at: string | null;
  } | null;
  refund: { value: string; currency_code: string } | null;
}

const STATUS: Record<number, string> = {
  0: 'placing',
  1: 'accepted',
  2: 'declined',
  3: 'settled',
  4: 'unsettled',
  5: 'refunded',
  6: 'refunded manually',
  7: 'cashed out',
  10: 'place error',
  11: 'force declined',
};
const TYPE = ['single', 'express', 'system'];

/** Bets: search by player, status and placement window; newest first with paging. */
export function Bets({ wl }: { wl: string }) {
  const [form, setForm] = useState({ player_id: '', status: '', from: '', to: '' });
  const [query, setQuery] = useState(form);
  const [pages, setPages] = useState<string[]>([]);
  const cursor = pages[pages.length - 1];
  const { data, error } = useLoad(
    () =>
      api<{ items: Bet[]; next: string | null }>(
        'GET',
        `/bets${qs({
          player_id: query.player_id || undefined,
          status: query.status || undefined,
          from: query.from ? new Date(query.from).toISOString() : undefined,
          to: query.to ? new Date(query.to).toISOString() : undefined,
          cursor,
          limit: '50',
        })}`,
      ),
    [wl, query, cursor],
  );
  const field = (k: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  return (
    <Section title="Bets">
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPages([]);
          setQuery(form);
        }}
      >
        <label>
          Player
          <input name="player_id" value={form.player_id} onInput={field('player_id')} />
        </label>
        <label>
          Status
          <select name="status" value={form.status} onChange={field('status')}>
            <option value="">any</option>
            {Object.entries(STATUS)
              .filter(([c]) => c !== '0')
              .map(([c, n]) => (
                <option value={c}>{n}</option>
              ))}
          </select>
        </label>
        <label>
          From
          <input type="datetime-local" name="from" value={form.from} onInput={field('from')} />
        </label>
        <label>
          To
          <input type="datetime-local" name="to" value={form.to} onInput={field('to')} />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={error} />
      <table>
        <thead>
          <tr>
            <th>bet</th>
            <th>player</th>
            <th>placed</th>
            <th>type</th>
            <th>stake</th>
            <th>odds</th>
            <th>status</th>
            <th>settle amount</th>
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((b) => (
            <tr key={b.id} data-bet={b.id}>
              <td>
                <a href={`#/bets/${b.id}`} title={b.id}>
                  {b.id.slice(0, 8)}…
                </a>
              </td>
              <td>{b.player_id}</td>
              <td>{fmtTime(b.created_at)}</td>
              <td>{TYPE[b.type.code]}</td>
              <td>{money(b.stake.value, b.stake.currency_code)}</td>
              <td>{b.total_odds}</td>
              <td>{STATUS[b.status.code] ?? b.status.code}</td>
              <td>{b.settlement?.settle_amount ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="paging">
        {pages.length > 0 && (
          <button type="button" onClick={() => setPages(pages.slice(0, -1))}>
            Newer
          </button>
        )}
        {data?.next && (
          <button type="button" onClick={() => setPages([...pages, data.next as string])}>
            Older
          </button>
        )}
      </div>
    </Section>
  );
}

/** One bet: its selections, settlement, callbacks (settle / unsettle among them); cancel and void. */
export function BetDetail({ wl, id, readOnly }: { wl: string; id: string; readOnly: boolean }) {
  const bet = useLoad(() => api<Bet>('GET', `/bets/${encodeURIComponent(id)}`), [wl, id]);
  const callbacks = useLoad(
    () => api<{ items: Delivery[] }>('GET', `/admin/callbacks${qs({ bet_id: id, white_label_id: wl })}`),
    [wl, id],
  );
  const [reason, setReason] = useState('');
  const act = useAction();
  const run = (verb: 'cancel' | 'void') =>
    act.run(async () => {
      await api('POST', `/bets/${encodeURIComponent(id)}/${verb}`, { reason });
      bet.reload();
      callbacks.reload();
    });
  const retry = (deliveryId: string) =>
    act.run(async () => {
      await api('POST', `/admin/callbacks/${deliveryId}/retry`);
      callbacks.reload();
    });
  const b = bet.data;
  return (
    <Section title={`Bet ${id}`}>
      <ErrorBox error={bet.error || callbacks.error || act.error} />
      {b && (
        <>
          <dl class="facts">
            <dt>player</dt>
            <dd>{b.player_id}</dd>
            <dt>status</dt>
            <dd data-testid="bet-status">
              {STATUS[b.status.code] ?? b.status.code}
              {b.status.reason ? ` — ${b.status.reason}` : ''}
            </dd>
            <dt>type</dt>
            <dd>{TYPE[b.type.code]}</dd>
            <dt>stake</dt>
            <dd>{money(b.stake.value, b.stake.currency_code)}</dd>
            <dt>total odds</dt>
            <dd>{b.total_odds}</dd>
            <dt>placed / accepted</dt>
            <dd>
              {fmtTime(b.created_at)} / {fmtTime(b.accepted_at)}
            </dd>
            <dt>settlement</dt>
            <dd>
              {b.settlement
                ? `settle amount ${b.settlement.settle_amount} (payout ${b.settlement.payout}, type ${b.settlement.settle_type}) at ${fmtTime(b.settlement.settled_at)}`
                : 'not settled'}
            </dd>
          </dl>
          <h3>Selections</h3>
          <table>
            <thead>
              <tr>
                <th>sport event</th>
                <th>market</th>
                <th>odd</th>
                <th>odds (asked)</th>
                <th>odd status</th>
              </tr>
            </thead>
            <tbody>
              {b.selections.map((s) => (
                <tr>
                  <td>{s.sport_event_id.slice(0, 8)}</td>
                  <td>{s.market_id}</td>
                  <td>{s.odd_id}</td>
                  <td>
                    {s.value} ({s.requested_value})
                  </td>
                  <td>{s.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {!readOnly && (b.status.code === 1 || b.status.code === 4) && (
            <form class="filters" onSubmit={(e) => e.preventDefault()}>
              <label>
                Reason
                <input
                  name="reason"
                  value={reason}
                  onInput={(e) => setReason((e.target as HTMLInputElement).value)}
                />
              </label>
              <button type="button" onClick={() => run('cancel')} disabled={act.busy || !reason}>
                Cancel bet (stake back, status 5)
              </button>
              <button type="button" class="danger" onClick={() => run('void')} disabled={act.busy || !reason}>
                Void bet (stake back, status 6)
              </button>
            </form>
          )}
        </>
      )}
      <h3>Callbacks and settlements</h3>
      <DeliveryTable items={callbacks.data?.items ?? []} onRetry={retry} readOnly={readOnly} />
    </Section>
  );
}
