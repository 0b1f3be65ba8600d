import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { DataTable, ErrorBox, fmtTime, Section, useAction, useLoad } from '../ui.js';

export interface Delivery {
  id: string;
  request_id: string;
  white_label_id: string;
  bet_id: string;
  path: string;
  mode: 'async' | 'sync';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** A table of callback deliveries with "Retry now" on the pending ones. */
export function DeliveryTable({
  items,
  onRetry,
  readOnly,
}: {
  items: Delivery[];
  onRetry?: (id: string) => void;
  readOnly?: boolean;
}) {
  return (
    <DataTable
      class="deliveries"
      head={
        <tr>
          <th>id</th>
          <th>bet</th>
          <th>callback</th>
          <th>status</th>
          <th>attempts</th>
          <th>last error</th>
          <th>next attempt</th>
          <th />
        </tr>
      }
    >
      {items.map((d) => (
        <tr key={d.id} data-delivery={d.id} data-status={d.status}>
          <td>{d.id}</td>
          <td>
            <a href={`#/bets/${d.bet_id}`} title={d.bet_id}>
              {d.bet_id.slice(0, 8)}…
            </a>
          </td>
          <td>
            <code>{d.path}</code>
          </td>
          <td class={`status-${d.status}`}>{d.status}</td>
          <td>{d.attempts}</td>
          <td class="last-error">{d.last_error ?? (d.last_status ? `HTTP ${d.last_status}` : '')}</td>
          <td>{fmtTime(d.next_attempt_at)}</td>
          <td>
            {onRetry && !readOnly && d.status === 'pending' && d.mode === 'async' && (
              <button type="button" onClick={() => onRetry(d.id)}>
                Retry now
              </button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The callback queue: pending and failing deliveries, attempts and last error; retry now. */
export function Callbacks({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const [filter, setFilter] = useState<'failing' | 'pending' | 'all'>('failing');
  const [betId, setBetId] = useState('');
  const { data, error, reload } = useLoad(
    () =>
      api<{ items: Delivery[] }>(
        'GET',
        `/admin/callbacks${qs({
          white_label_id: wl,
          failing: filter === 'failing' ? 'true' : undefined,
          status: filter === 'pending' ? 'pending' : undefined,
          bet_id: betId || undefined,
          limit: '200',
        })}`,
      ),
    [wl, filter, betId],
  );
  const act = useAction();
  const retry = (id: string) =>
    act.run(async () => {
      await api('POST', `/admin/callbacks/${id}/retry`);
      reload();
    });
  return (
    <Section title="Callback queue">
      <div class="filters">
        <label>
          Show
          <select
            value={filter}
            onChange={(e) => setFilter((e.target as HTMLSelectElement).value as typeof filter)}
          >
            <option value="failing">failing</option>
            <option value="pending">pending</option>
            <option value="all">all</option>
          </select>
        </label>
        <label>
          Bet id
          <input
            name="bet_id"
            value={betId}
            onChange={(e) => setBetId((e.target as HTMLInputElement).value.trim())}
          />
        </label>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={error || act.error} />
      <DeliveryTable items={data?.items ?? []} onRetry={retry} readOnly={readOnly} />
    </Section>
  );
}
