import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { money, Named } from '../format.js';
import { DataTable, ErrorBox, SecretOnce, Section, useAction, useLoad } from '../ui.js';
import type { WhiteLabel } from '../white-label.js';

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
      const r = await api<{
        id: string;
        client_id: string;
        client_secret: string;
        white_label: { signing: { secret?: string } };
      }>('POST', '/admin/white-labels', {
        name: form.name,
        currencies: form.currencies.split(/[\s,]+/).filter(Boolean),
        ...(form.callback_url ? { callback_url: form.callback_url } : {}),
        allowlist: form.allowlist.split(/[\s,]+/).filter(Boolean),
        // the web origins that may embed the betting frame (CORS), kept from the start
        allowed_origins: form.allowed_origins.split(/[\s,]+/).filter(Boolean),
      });
      setCreated({
        id: r.id,
        client_id: r.client_id,
        client_secret: r.client_secret,
        // the callback signing secret, shown once: only a rotation shows a new one
        signing_secret: r.white_label.signing.secret ?? '',
      });
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
      <DataTable
        head={
          <tr>
            <th>white label</th>
            <th>mode</th>
            <th>currencies</th>
            <th>min / max stake</th>
            <th>max payout</th>
            <th>delay / interval (s)</th>
            <th />
          </tr>
        }
      >
        {(data?.white_labels ?? []).map((w) => (
          <tr key={w.id} data-white-label={w.id}>
            <td>
              <Named id={w.id} name={w.name} />
            </td>
            <td>{w.mode}</td>
            <td>{w.currencies.join(', ')}</td>
            <td>
              {money(w.limits.min_stake)} / {money(w.limits.max_stake)}
            </td>
            <td>{money(w.limits.max_payout)}</td>
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
      </DataTable>
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
