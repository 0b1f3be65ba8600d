import { useState } from 'preact/hooks';
import { api, qs } from '../api.js';
import { ErrorBox, fmtTime, SecretOnce, Section, sumMoney, useAction, useLoad } from '../ui.js';
import type { WhiteLabel } from './white-label-settings.js';

/** Every white label: create one (its first credential shown once), configure limits, mode, delay, interval. */
export function WhiteLabels({ onActAs }: { onActAs: (id: string) => void }) {
  const { data, error, reload } = useLoad(() =>
    api<{ white_labels: WhiteLabel[] }>('GET', '/admin/white-labels'),
  );
  const [created, setCreated] = useState<Record<string, string> | undefined>();
  const [form, setForm] = useState({
    name: '',
    currencies: 'EUR',
    callback_url: '',
    allowlist: '127.0.0.1',
    allowed_origins: '',
  });
  const [editing, setEditing] = useState<string | undefined>();
  const act = useAction();
  const create = () =>
    act.run(async () => {
      const r = await api<{ id: string; client_id: string; client_secret: string }>(
        'POST',
        '/admin/white-labels',
        {
          name: form.name,
          currencies: form.currencies.split(/[\s,]+/).filter(Boolean),
          ...(form.callback_url ? { callback_url: form.callback_url } : {}),
          allowlist: form.allowlist.split(/[\s,]+/).filter(Boolean),
          // the web origins that may embed the betting frame (CORS), kept from the start
          allowed_origins: form.allowed_origins.split(/[\s,]+/).filter(Boolean),
        },
      );
      setCreated({ id: r.id, client_id: r.client_id, client_secret: r.client_secret });
      reload();
    });
  const field = (k: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  return (
    <Section title="White labels">
      <ErrorBox error={error || act.error} />
      {created && <SecretOnce label="New white label" values={created} />}
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <label>
          Name
          <input name="name" value={form.name} onInput={field('name')} required />
        </label>
        <label>
          Currencies
          <input name="currencies" value={form.currencies} onInput={field('currencies')} />
        </label>
        <label>
          Callback URL
          <input name="callback_url" value={form.callback_url} onInput={field('callback_url')} />
        </label>
        <label>
          Allowlist
          <input name="allowlist" value={form.allowlist} onInput={field('allowlist')} />
        </label>
        <label>
          Allowed origins
          <input
            name="allowed_origins"
            placeholder="https://casino.example"
            value={form.allowed_origins}
            onInput={field('allowed_origins')}
          />
        </label>
        <button type="submit" disabled={act.busy}>
          Create white label
        </button>
      </form>
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>name</th>
            <th>mode</th>
            <th>currencies</th>
            <th>min / max stake</th>
            <th>max payout</th>
            <th>delay / interval (s)</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data?.white_labels ?? []).map((w) => (
            <tr key={w.id} data-white-label={w.id}>
              <td>
                <code>{w.id}</code>
              </td>
              <td>{w.name}</td>
              <td>{w.mode}</td>
              <td>{w.currencies.join(', ')}</td>
              <td>
                {w.limits.min_stake ?? '—'} / {w.limits.max_stake ?? '—'}
              </td>
              <td>{w.limits.max_payout ?? '—'}</td>
              <td>
                {w.bet_delay} / {w.bet_interval}
              </td>
              <td>
                <button type="button" onClick={() => setEditing(w.id)}>
                  Configure
                </button>{' '}
                <button type="button" onClick={() => onActAs(w.id)}>
                  Open
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && (
        <Configure
          wl={(data?.white_labels ?? []).find((w) => w.id === editing) as WhiteLabel}
          onDone={() => {
            setEditing(undefined);
            reload();
          }}
        />
      )}
    </Section>
  );
}

function Configure({ wl, onDone }: { wl: WhiteLabel; onDone: () => void }) {
  const [f, setF] = useState({
    mode: wl.mode,
    min_stake: wl.limits.min_stake ?? '',
    max_stake: wl.limits.max_stake ?? '',
    max_payout: wl.limits.max_payout ?? '',
    bet_delay: String(wl.bet_delay),
    bet_interval: String(wl.bet_interval),
  });
  const act = useAction();
  const field = (k: keyof typeof f) => (e: Event) =>
    setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  const limit = (v: string) => (v.trim() === '' ? null : v.trim());
  const save = () =>
    act.run(async () => {
      await api('PATCH', `/admin/white-labels/${wl.id}`, {
        mode: f.mode,
        limits: {
          min_stake: limit(f.min_stake),
          max_stake: limit(f.max_stake),
          max_payout: limit(f.max_payout),
        },
        bet_delay: Number(f.bet_delay),
        bet_interval: Number(f.bet_interval),
      });
      onDone();
    });
  return (
    <form
      class="configure"
      aria-label={`Configure ${wl.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <h3>Configure {wl.name}</h3>
      <ErrorBox error={act.error} />
      <label>
        Mode
        <select name="mode" value={f.mode} onChange={field('mode')}>
          <option value="turnkey">turnkey</option>
          <option value="mts">mts</option>
          <option value="advisory">advisory</option>
        </select>
      </label>
      <label>
        Min stake
        <input name="min_stake" value={f.min_stake} onInput={field('min_stake')} />
      </label>
      <label>
        Max stake
        <input name="max_stake" value={f.max_stake} onInput={field('max_stake')} />
      </label>
      <label>
        Max payout
        <input name="max_payout" value={f.max_payout} onInput={field('max_payout')} />
      </label>
      <label>
        Bet delay (s)
        <input name="bet_delay" value={f.bet_delay} onInput={field('bet_delay')} />
      </label>
      <label>
        Bet interval (s)
        <input name="bet_interval" value={f.bet_interval} onInput={field('bet_interval')} />
      </label>
      <button type="submit" disabled={act.busy}>
        Save limits
      </button>
    </form>
  );
}

interface EventSummary {
  id: string;
  name: string;
  tournament: string;
  start_time: string;
  status: number;
  bet_stop: boolean;
  markets: number;
  active_markets: number;
  version: string;
}
interface Snapshot {
  sport_event: {
    markets: Record<
      string,
      {
        id: string;
        status: number;
        type_id: number;
        specifiers: Record<string, string>;
        odds: Record<string, { id: string; value: string; status: number; is_active: boolean }>;
      }
    >;
    bet_stop: boolean;
  };
  version: string;
}

interface ExposureItem {
  white_label_id: string;
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  phase: string;
  exposure_eur: string;
  limit_eur: string | null;
}

/** A feed odd value (12 decimals) shown without its trailing zeros, as text: never through a float. */
function shortOdds(value: string): string {
  return value.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

const FIXTURE_STATUS = [
  'not started',
  'live',
  'suspended',
  'ended',
  'closed',
  'cancelled',
  'delayed',
  'interrupted',
  'postponed',
  'abandoned',
];

/**
 * The live book: events with status and bet stop; an event's markets and odds with the exposure on each outcome;
 * bet stop on or off.
 */
export function LiveBook() {
  const [status, setStatus] = useState('');
  const list = useLoad(
    () => api<{ items: EventSummary[] }>('GET', `/trading/sport-events${qs({ status, limit: '200' })}`),
    [status],
  );
  const [open, setOpen] = useState<string | undefined>();
  return (
    <Section title="Live book">
      <div class="filters">
        <label>
          Fixture status
          <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="">any</option>
            {FIXTURE_STATUS.map((s, i) => (
              <option value={String(i)}>{s}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={list.error} />
      <table>
        <thead>
          <tr>
            <th>event</th>
            <th>tournament</th>
            <th>start</th>
            <th>status</th>
            <th>bet stop</th>
            <th>markets (active)</th>
            <th>version</th>
          </tr>
        </thead>
        <tbody>
          {(list.data?.items ?? []).map((e) => (
            <tr key={e.id} data-event={e.id}>
              <td>
                <button type="button" class="link" onClick={() => setOpen(open === e.id ? undefined : e.id)}>
                  {e.name}
                </button>
              </td>
              <td>{e.tournament}</td>
              <td>{fmtTime(e.start_time)}</td>
              <td>{FIXTURE_STATUS[e.status] ?? e.status}</td>
              <td>{e.bet_stop ? 'STOPPED' : ''}</td>
              <td>
                {e.markets} ({e.active_markets})
              </td>
              <td>{e.version}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <EventBook id={open} onChange={list.reload} />}
    </Section>
  );
}

function EventBook({ id, onChange }: { id: string; onChange: () => void }) {
  const { data, error, reload } = useLoad(() => api<Snapshot>('GET', `/trading/sport-events/${id}`), [id]);
  const exposure = useLoad(
    () =>
      api<{ items: ExposureItem[] }>(
        'GET',
        `/admin/risk/exposure${qs({ sport_event_id: id, limit: '10000' })}`,
      ),
    [id],
  );
  // every white label's exposure on an outcome, summed (EUR); the largest limit share is the one to watch
  const byOutcome = new Map<string, ExposureItem[]>();
  for (const x of exposure.data?.items ?? []) {
    const k = `${x.market_id}|${x.odd_id}`;
    byOutcome.set(k, [...(byOutcome.get(k) ?? []), x]);
  }
  const act = useAction();
  const toggle = () =>
    act.run(async () => {
      await api('PUT', `/trading/sport-events/${id}/bet-stop`, { bet_stop: !data?.sport_event.bet_stop });
      reload();
      onChange();
    });
  if (!data) return <ErrorBox error={error} />;
  return (
    <div class="event-book" data-testid="event-book">
      <h3>
        Markets of {id.slice(0, 8)} (version {data.version})
      </h3>
      <ErrorBox error={act.error || exposure.error} />
      <p class="hint">
        Next to each odd: the exposure on that outcome (EUR, every white label), and its limit.
      </p>
      <button type="button" onClick={toggle} disabled={act.busy}>
        {data.sport_event.bet_stop ? 'Lift bet stop' : 'Bet stop'}
      </button>
      <table>
        <thead>
          <tr>
            <th>market</th>
            <th>type</th>
            <th>specifiers</th>
            <th>status</th>
            <th>odds</th>
          </tr>
        </thead>
        <tbody>
          {Object.values(data.sport_event.markets).map((m) => (
            <tr>
              <td>{m.id}</td>
              <td>{m.type_id}</td>
              <td>
                {Object.entries(m.specifiers)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ')}
              </td>
              <td>{m.status}</td>
              <td>
                {Object.values(m.odds).map((o) => {
                  const rows = byOutcome.get(`${m.id}|${o.id}`) ?? [];
                  const limits = [...new Set(rows.map((r) => r.limit_eur).filter((l) => l !== null))];
                  return (
                    <span class={`odd ${o.is_active ? '' : 'inactive'}`} data-odd={`${m.id}|${o.id}`}>
                      <span>
                        {o.id}: {shortOdds(o.value)}
                        {o.status ? ` [${o.status}]` : ''}
                      </span>
                      {rows.length > 0 && (
                        <span
                          class="exposure"
                          data-field="exposure"
                          title={rows
                            .map((r) => `${r.white_label_id} ${r.phase}: ${r.exposure_eur}`)
                            .join('\n')}
                        >
                          {' '}
                          exp {sumMoney(rows.map((r) => r.exposure_eur))} EUR
                          {limits.length === 1 ? ` / limit ${sumMoney([limits[0] as string])}` : ''}
                        </span>
                      )}{' '}
                    </span>
                  );
                })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Settlement: this process's consumer, the quarantined log entries (retry, skip) and the callbacks that keep failing
 * (every white label).
 */
export function Settlement() {
  const status = useLoad(() => api<Record<string, unknown>>('GET', '/admin/settlement/status'));
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
  return (
    <Section title="Settlement">
      <ErrorBox error={status.error || failing.error} />
      <pre class="json">{JSON.stringify(status.data ?? {}, null, 2)}</pre>
      <Quarantine />
      <h3>Failing callbacks (every white label)</h3>
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>white label</th>
            <th>bet</th>
            <th>callback</th>
            <th>attempts</th>
            <th>last error</th>
          </tr>
        </thead>
        <tbody>
          {(failing.data?.items ?? []).map((d) => (
            <tr>
              <td>{d.id}</td>
              <td>{d.white_label_id}</td>
              <td>{d.bet_id.slice(0, 8)}</td>
              <td>{d.path}</td>
              <td>{d.attempts}</td>
              <td>{d.last_error}</td>
            </tr>
          ))}
        </tbody>
      </table>
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

interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  subject: string;
  details: unknown;
}

/** The audit log, newest first: who, what, on what, before and after. */
export function AuditLog() {
  const [before, setBefore] = useState<string[]>([]);
  const cursor = before[before.length - 1];
  const { data, error } = useLoad(
    () =>
      api<{ items: AuditEntry[]; next: string | null }>(
        'GET',
        `/admin/audit-log${qs({ before: cursor, limit: '50' })}`,
      ),
    [cursor],
  );
  return (
    <Section title="Audit log">
      <ErrorBox error={error} />
      <table class="audit">
        <thead>
          <tr>
            <th>at</th>
            <th>who</th>
            <th>what</th>
            <th>subject</th>
            <th>details</th>
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((a) => (
            <tr key={a.id}>
              <td>{fmtTime(a.at)}</td>
              <td>{a.actor}</td>
              <td>{a.action}</td>
              <td>{a.subject}</td>
              <td>
                <details>
                  <summary>show</summary>
                  <pre class="json">{JSON.stringify(a.details, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="paging">
        {before.length > 0 && (
          <button type="button" onClick={() => setBefore(before.slice(0, -1))}>
            Newer
          </button>
        )}
        {data?.next && (
          <button type="button" onClick={() => setBefore([...before, data.next as string])}>
            Older
          </button>
        )}
      </div>
    </Section>
  );
}
