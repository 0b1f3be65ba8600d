import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { count, Named, time } from '../format.js';
import { type Overview, utcDay } from '../overview.js';
import { DataTable, ErrorBox, fmtTime, Section, useAction, useLoad } from '../ui.js';

/** `GET /admin/settlement/status`: this process's settlement consumer. */
interface ConsumerStatus {
  leader: boolean;
  processed?: string;
  entries?: number;
  settled?: number;
  unsettled?: number;
  resettled?: number;
  callbacks?: number;
  failures?: number;
}

/**
 * Settlement as figures: the lag behind the log, the last entry processed and when it was written, whether this
 * process leads, what it settled; the quarantined log entries (retry, skip) and the callbacks that keep failing
 * (every white label, by name).
 */
export function Settlement() {
  const status = useLoad(() => api<ConsumerStatus>('GET', '/admin/settlement/status'));
  const overview = useLoad(() =>
    api<Overview>(
      'GET',
      `/admin/overview${qs({ from: `${utcDay(0)}T00:00:00Z`, to: `${utcDay(1)}T00:00:00Z` })}`,
    ),
  );
  const failing = useLoad(() =>
    api<{
      items: Array<{
        id: string;
        white_label_id: string;
        bet_id: string;
        path: string;
        attempts: number;
        last_error: string | null;
      }>;
    }>('GET', '/admin/callbacks?failing=true&limit=100'),
  );
  const s = status.data;
  const o = overview.data?.settlement;
  const names = new Map((overview.data?.white_labels ?? []).map((w) => [w.id, w.name]));
  return (
    <Section title="Settlement">
      <ErrorBox error={status.error || failing.error || overview.error} />
      <dl class="figures" data-testid="settlement-figures">
        <div class={`figure ${o && o.lag_entries !== '0' ? 'bad' : 'ok'}`}>
          <dt class="figure-name">Lag (log entries behind)</dt>
          <dd class="figure-value" data-field="lag">
            {o ? count(o.lag_entries) : '…'}
          </dd>
        </div>
        <div class="figure">
          <dt class="figure-name">Last entry processed</dt>
          <dd class="figure-value" data-field="processed">
            {o ? `v${o.processed} of v${o.head}` : '…'}
          </dd>
          <dd class="hint">written {time(o?.last_entry_at)}</dd>
        </div>
        <div class={`figure ${s?.leader ? 'ok' : ''}`}>
          <dt class="figure-name">Leader</dt>
          <dd class="figure-value" data-field="leader">
            {s ? (s.leader ? 'this process' : 'another process') : '…'}
          </dd>
        </div>
        <div class={`figure ${o && o.quarantined > 0 ? 'bad' : 'ok'}`}>
          <dt class="figure-name">Quarantined</dt>
          <dd class="figure-value" data-field="quarantined">
            {o ? count(o.quarantined) : '…'}
          </dd>
        </div>
        {s?.entries !== undefined && (
          <div class="figure">
            <dt class="figure-name">Since start: entries, settled, unsettled, resettled</dt>
            <dd class="figure-value">
              {count(s.entries)} · {count(s.settled ?? 0)} · {count(s.unsettled ?? 0)} ·{' '}
              {count(s.resettled ?? 0)}
            </dd>
            <dd class="hint">
              {count(s.callbacks ?? 0)} callbacks written, {count(s.failures ?? 0)} failures retried
            </dd>
          </div>
        )}
      </dl>
      <Quarantine />
      <h3>Failing callbacks (every white label)</h3>
      <DataTable
        head={
          <tr>
            <th scope="col">delivery</th>
            <th scope="col">white label</th>
            <th scope="col">bet</th>
            <th scope="col">callback</th>
            <th scope="col">attempts</th>
            <th scope="col">last error</th>
          </tr>
        }
      >
        {(failing.data?.items ?? []).map((d) => (
          <tr>
            <td>{d.id}</td>
            <td>
              <Named id={d.white_label_id} name={names.get(d.white_label_id)} />
            </td>
            <td>
              <Named id={d.bet_id} />
            </td>
            <td>
              <code>{d.path}</code>
            </td>
            <td>{d.attempts}</td>
            <td class="last-error">{d.last_error}</td>
          </tr>
        ))}
      </DataTable>
    </Section>
  );
}

interface QuarantineEntry {
  v: string;
  status: 'quarantined' | 'retry' | 'resolved' | 'skipped';
  error: string;
  attempts: number;
  type?: string;
  quarantined_at: string;
  updated_at: string;
}

/** Log entries settlement gave up on: their last error; retry or skip each, with a reason (audited). */
function Quarantine() {
  const [status, setStatus] = useState('quarantined');
  const { data, error, reload } = useLoad(
    () => api<{ items: QuarantineEntry[] }>('GET', `/admin/settlement/quarantine${qs({ status })}`),
    [status],
  );
  const [reason, setReason] = useState('');
  const act = useAction();
  const decide = (v: string, decision: 'retry' | 'skip') =>
    act.run(async () => {
      await api('POST', `/admin/settlement/quarantine/${v}/${decision}`, {
        reason: reason.trim() || `${decision} from the backoffice`,
      });
      reload();
    });
  return (
    <div data-testid="quarantine">
      <h3>Quarantined log entries</h3>
      <div class="filters">
        <label>
          Status
          <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="">any</option>
            <option value="quarantined">quarantined</option>
            <option value="retry">retry asked</option>
            <option value="resolved">resolved</option>
            <option value="skipped">skipped</option>
          </select>
        </label>
        <label>
          Reason (audited)
          <input
            name="reason"
            value={reason}
            onInput={(e) => setReason((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={error || act.error} />
      <table>
        <thead>
          <tr>
            <th>log version</th>
            <th>type</th>
            <th>status</th>
            <th>attempts</th>
            <th>last error</th>
            <th>since</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((q) => (
            <tr key={q.v} data-entry={q.v}>
              <td>{q.v}</td>
              <td>{q.type ?? ''}</td>
              <td data-field="status">{q.status}</td>
              <td>{q.attempts}</td>
              <td class="last-error">{q.error}</td>
              <td>{fmtTime(q.quarantined_at)}</td>
              <td>
                {q.status === 'quarantined' && (
                  <>
                    <button type="button" disabled={act.busy} onClick={() => decide(q.v, 'retry')}>
                      Retry
                    </button>{' '}
                    <button
                      type="button"
                      class="danger"
                      disabled={act.busy}
                      onClick={() => decide(q.v, 'skip')}
                    >
                      Skip
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.items.length === 0 && <p class="ok">Nothing in quarantine.</p>}
    </div>
  );
}
