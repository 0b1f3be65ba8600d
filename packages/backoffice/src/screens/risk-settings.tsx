import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { money, Named, odds, percent, time } from '../format.js';
import { MARKET_TYPES } from '../names.js';
import { ErrorBox, Section, useAction, useLoad } from '../ui.js';

interface Limit {
  white_label_id: string;
  market_type_id: string;
  phase: 'live' | 'prematch';
  liability_eur: string;
}
interface Group {
  name: string;
  stake_factor: string;
  max_payout_eur: string | null;
}
interface Delay {
  level: 'sport_event' | 'market_type' | 'risk_group';
  key: string;
  phase: 'live' | 'prematch';
  seconds: string;
}
interface Settings {
  limits: Limit[];
  groups: Group[];
  delays: Delay[];
}

/** A field's problem before the server is asked, or '' (the server checks again and names the field). */
export function checkDecimal(
  value: string,
  field: string,
  opts: { max?: number; decimals?: number } = {},
): string {
  const v = value.trim();
  const re = new RegExp(`^\\d+(\\.\\d{1,${opts.decimals ?? 6}})?$`);
  if (!re.test(v)) return `${field}: a decimal number ≥ 0 with at most ${opts.decimals ?? 6} decimals`;
  if (opts.max !== undefined && Number(v.split('.')[0]) >= opts.max) return `${field}: below ${opts.max}`;
  return '';
}

function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child passed in
    <label>
      {label}
      {children}
    </label>
  );
}

const value = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value);

/**
 * Risk settings: liability limits per white label and market type, risk groups and their stake factors, bet delays
 * by level, cash-out margins, the odds shading has lowered — each change checked here, checked again by the server
 * (which names the field), audited, and listed under "Changes".
 */
export function RiskSettings(_: { tab?: string | undefined }) {
  const settings = useLoad(() => api<Settings>('GET', '/admin/risk/settings'));
  const white = useLoad(() =>
    api<{ white_labels: Array<{ id: string; name: string }> }>('GET', '/admin/white-labels'),
  );
  const names = new Map((white.data?.white_labels ?? []).map((w) => [w.id, w.name]));
  const [audit, setAudit] = useState(0);
  const changed = () => {
    settings.reload();
    setAudit((n) => n + 1);
  };
  return (
    <>
      <ErrorBox error={settings.error || white.error} />
      <Limits
        limits={settings.data?.limits ?? []}
        whiteLabels={white.data?.white_labels ?? []}
        names={names}
        onChange={changed}
      />
      <Groups groups={settings.data?.groups ?? []} onChange={changed} />
      <Delays delays={settings.data?.delays ?? []} onChange={changed} />
      <Margins names={names} whiteLabels={white.data?.white_labels ?? []} onChange={changed} />
      <Shading />
      <Changes key={audit} />
    </>
  );
}

function Limits({
  limits,
  whiteLabels,
  names,
  onChange,
}: {
  limits: Limit[];
  whiteLabels: Array<{ id: string; name: string }>;
  names: Map<string, string>;
  onChange: () => void;
}) {
  const [wl, setWl] = useState('');
  const [type, setType] = useState('*');
  const [phase, setPhase] = useState<'live' | 'prematch'>('prematch');
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState('');
  const act = useAction();
  const save = (liability: string | null, row?: Limit) =>
    act.run(async () => {
      const body = row
        ? {
            white_label_id: row.white_label_id,
            market_type_id: row.market_type_id,
            phase: row.phase,
            liability_eur: liability,
          }
        : {
            white_label_id: wl || whiteLabels[0]?.id,
            market_type_id: type.trim(),
            phase,
            liability_eur: liability,
          };
      await api('PUT', '/admin/risk/limits', body);
      setAmount('');
      onChange();
    });
  return (
    <Section title="Liability limits per outcome (EUR)">
      <form
        class="filters"
        aria-label="Set a liability limit"
        onSubmit={(e) => {
          e.preventDefault();
          const p =
            checkDecimal(amount, 'Limit (EUR)') ||
            (/^(\*|[A-Za-z0-9_:.-]{1,64})$/.test(type.trim()) ? '' : 'Market type: an id or *');
          setProblem(p);
          if (!p) save(amount.trim());
        }}
      >
        <Field label="White label">
          <select name="white_label_id" value={wl} onChange={value(setWl)}>
            {whiteLabels.map((w) => (
              <option value={w.id}>{w.name}</option>
            ))}
          </select>
        </Field>
        <Field label="Market type (* for every type)">
          <input name="market_type_id" value={type} onInput={value(setType)} list="market-types" />
          <datalist id="market-types">
            {Object.entries(MARKET_TYPES).map(([id, n]) => (
              <option value={id}>{n}</option>
            ))}
          </datalist>
        </Field>
        <Field label="Phase">
          <select name="phase" value={phase} onChange={value((v) => setPhase(v as 'live' | 'prematch'))}>
            <option value="prematch">prematch</option>
            <option value="live">live</option>
          </select>
        </Field>
        <Field label="Limit (EUR)">
          <input name="liability_eur" inputMode="decimal" value={amount} onInput={value(setAmount)} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Set limit
        </button>
      </form>
      <ErrorBox error={problem || act.error} />
      <div class="scroll" tabIndex={0}>
        <table data-testid="limits">
          <thead>
            <tr>
              <th scope="col">white label</th>
              <th scope="col">market type</th>
              <th scope="col">phase</th>
              <th scope="col" class="num">
                limit
              </th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {limits.map((l) => (
              <tr data-limit={`${l.white_label_id}|${l.market_type_id}|${l.phase}`}>
                <td>
                  <Named id={l.white_label_id} name={names.get(l.white_label_id)} />
                </td>
                <td>
                  {l.market_type_id === '*'
                    ? 'every type'
                    : (MARKET_TYPES[Number(l.market_type_id)] ?? l.market_type_id)}
                </td>
                <td>{l.phase}</td>
                <td class="num" data-value={l.liability_eur}>
                  {money(l.liability_eur, 'EUR')}
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => save(null, l)} disabled={act.busy}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function Groups({ groups, onChange }: { groups: Group[]; onChange: () => void }) {
  const [name, setName] = useState('');
  const [factor, setFactor] = useState('');
  const [maxPayout, setMaxPayout] = useState('');
  const [problem, setProblem] = useState('');
  const act = useAction();
  return (
    <Section title="Risk groups and stake factors">
      <form
        class="filters"
        aria-label="Set a risk group"
        onSubmit={(e) => {
          e.preventDefault();
          const p =
            (/^[a-z0-9_-]{1,40}$/.test(name) ? '' : 'Name: 1–40 of a-z, 0-9, _ and -') ||
            checkDecimal(factor, 'Stake factor') ||
            (maxPayout.trim() ? checkDecimal(maxPayout, 'Max payout (EUR)') : '');
          setProblem(p);
          if (p) return;
          act.run(async () => {
            await api('PUT', '/admin/risk/groups', {
              name,
              stake_factor: factor.trim(),
              max_payout_eur: maxPayout.trim() || null,
            });
            onChange();
          });
        }}
      >
        <Field label="Group">
          <input name="group_name" value={name} onInput={value(setName)} />
        </Field>
        <Field label="Stake factor (0 blocks)">
          <input name="stake_factor" inputMode="decimal" value={factor} onInput={value(setFactor)} />
        </Field>
        <Field label="Max payout (EUR, optional)">
          <input name="max_payout_eur" inputMode="decimal" value={maxPayout} onInput={value(setMaxPayout)} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Save group
        </button>
      </form>
      <ErrorBox error={problem || act.error} />
      <div class="scroll" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">group</th>
              <th scope="col" class="num">
                stake factor
              </th>
              <th scope="col" class="num">
                max payout
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr data-group={g.name}>
                <td>
                  <button
                    type="button"
                    class="link"
                    onClick={() => {
                      setName(g.name);
                      setFactor(g.stake_factor.replace(/\.?0+$/, ''));
                      setMaxPayout(g.max_payout_eur ?? '');
                    }}
                  >
                    {g.name}
                  </button>
                </td>
                <td class="num">× {odds(g.stake_factor)}</td>
                <td class="num">{money(g.max_payout_eur, 'EUR')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

const LEVELS = { sport_event: 'sport event', market_type: 'market type', risk_group: 'risk group' } as const;

function Delays({ delays, onChange }: { delays: Delay[]; onChange: () => void }) {
  const [level, setLevel] = useState<Delay['level']>('market_type');
  const [key, setKey] = useState('');
  const [phase, setPhase] = useState<'live' | 'prematch'>('live');
  const [seconds, setSeconds] = useState('');
  const [problem, setProblem] = useState('');
  const act = useAction();
  const save = (d: Omit<Delay, 'seconds'> & { seconds: string | null }) =>
    act.run(async () => {
      await api('PUT', '/admin/risk/delays', d);
      onChange();
    });
  return (
    <Section title="Bet delays by level (seconds; the largest level applies)">
      <form
        class="filters"
        aria-label="Set a bet delay"
        onSubmit={(e) => {
          e.preventDefault();
          const p =
            (key.trim() ? '' : 'Key: the sport event id, market type or risk group') ||
            checkDecimal(seconds, 'Seconds', { max: 301, decimals: 3 }) ||
            (Number(seconds) > 300 ? 'Seconds: at most 300' : '');
          setProblem(p);
          if (!p) save({ level, key: key.trim(), phase, seconds: seconds.trim() });
        }}
      >
        <Field label="Level">
          <select name="level" value={level} onChange={value((v) => setLevel(v as Delay['level']))}>
            {Object.entries(LEVELS).map(([k, n]) => (
              <option value={k}>{n}</option>
            ))}
          </select>
        </Field>
        <Field label="Key">
          <input name="key" value={key} onInput={value(setKey)} />
        </Field>
        <Field label="Phase">
          <select
            name="delay_phase"
            value={phase}
            onChange={value((v) => setPhase(v as 'live' | 'prematch'))}
          >
            <option value="live">live</option>
            <option value="prematch">prematch</option>
          </select>
        </Field>
        <Field label="Seconds (0–300)">
          <input name="seconds" inputMode="decimal" value={seconds} onInput={value(setSeconds)} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Set delay
        </button>
      </form>
      <ErrorBox error={problem || act.error} />
      <div class="scroll" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">level</th>
              <th scope="col">key</th>
              <th scope="col">phase</th>
              <th scope="col" class="num">
                seconds
              </th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {delays.map((d) => (
              <tr>
                <td>{LEVELS[d.level]}</td>
                <td>{d.level === 'market_type' ? (MARKET_TYPES[Number(d.key)] ?? d.key) : d.key}</td>
                <td>{d.phase}</td>
                <td class="num">{d.seconds}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => save({ ...d, seconds: null })}
                    disabled={act.busy}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function Margins({
  names,
  whiteLabels,
  onChange,
}: {
  names: Map<string, string>;
  whiteLabels: Array<{ id: string; name: string }>;
  onChange: () => void;
}) {
  const m = useLoad(() =>
    api<{ default_margin: string; margins: Array<{ white_label_id: string; margin: string }> }>(
      'GET',
      '/admin/risk/cash-out-margins',
    ),
  );
  const [wl, setWl] = useState('');
  const [margin, setMargin] = useState('');
  const [problem, setProblem] = useState('');
  const act = useAction();
  const save = (id: string, v: string | null) =>
    act.run(async () => {
      await api('PUT', '/admin/risk/cash-out-margins', { white_label_id: id, margin: v });
      m.reload();
      onChange();
    });
  return (
    <Section title="Cash-out margin">
      <p>
        Default (every white label without its own): <strong>{percent(m.data?.default_margin)}</strong>. An
        offer is the bet’s fair value × (1 − margin).
      </p>
      <form
        class="filters"
        aria-label="Set a cash-out margin"
        onSubmit={(e) => {
          e.preventDefault();
          const p = /^0(\.\d{1,6})?$/.test(margin.trim())
            ? ''
            : 'Margin: a fraction in [0, 1), at most 6 decimals (0.05 is 5 %)';
          setProblem(p);
          if (!p) save(wl || (whiteLabels[0]?.id ?? ''), margin.trim());
        }}
      >
        <Field label="White label">
          <select name="margin_white_label" value={wl} onChange={value(setWl)}>
            {whiteLabels.map((w) => (
              <option value={w.id}>{w.name}</option>
            ))}
          </select>
        </Field>
        <Field label="Margin (fraction, e.g. 0.05)">
          <input name="margin" inputMode="decimal" value={margin} onInput={value(setMargin)} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Set margin
        </button>
      </form>
      <ErrorBox error={problem || act.error || m.error} />
      <ul>
        {(m.data?.margins ?? []).map((x) => (
          <li>
            {names.get(x.white_label_id) ?? x.white_label_id}: {percent(x.margin)}{' '}
            <button type="button" class="link" onClick={() => save(x.white_label_id, null)}>
              use the default
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Shading() {
  const s = useLoad(() =>
    api<{
      items: Array<{
        sport_event_id: string;
        market_id: string;
        odd_id: string;
        market_type_id: string;
        base_odds: string;
        lowest_odds: string;
        publications: number;
      }>;
    }>('GET', '/admin/risk/shading?limit=100'),
  );
  return (
    <Section title="Odds shading">
      <p class="hint">
        Shading lowers an outcome’s published odds as its exposure nears the limit (RISK_SHADE_* settings of
        the server). The outcomes it has lowered:
      </p>
      <ErrorBox error={s.error} />
      <div class="scroll" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">outcome</th>
              <th scope="col" class="num">
                base odds
              </th>
              <th scope="col" class="num">
                lowest published
              </th>
              <th scope="col" class="num">
                times lowered
              </th>
            </tr>
          </thead>
          <tbody>
            {(s.data?.items ?? []).map((x) => (
              <tr>
                <td>
                  <a href={`#/live-book/${x.sport_event_id}`}>
                    event {x.sport_event_id.slice(0, 8)} · market {x.market_id} · outcome {x.odd_id}
                  </a>
                </td>
                <td class="num">{odds(x.base_odds)}</td>
                <td class="num">{odds(x.lowest_odds)}</td>
                <td class="num">{x.publications}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {s.data && s.data.items.length === 0 && <p class="hint">No odds lowered yet.</p>}
    </Section>
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

/** The audit log's risk changes, newest first. */
function Changes() {
  const a = useLoad(() => api<{ items: AuditEntry[] }>('GET', '/admin/audit-log?limit=500'));
  const risk = (a.data?.items ?? []).filter((x) => x.action.startsWith('risk.')).slice(0, 30);
  return (
    <Section title="Changes (audit log)">
      <ErrorBox error={a.error} />
      <div class="scroll" tabIndex={0}>
        <table data-testid="risk-changes">
          <thead>
            <tr>
              <th scope="col">at</th>
              <th scope="col">who</th>
              <th scope="col">what</th>
              <th scope="col">change</th>
            </tr>
          </thead>
          <tbody>
            {risk.map((x) => (
              <tr>
                <td>{time(x.at)}</td>
                <td>{x.actor}</td>
                <td>
                  {x.action} · {x.subject}
                </td>
                <td>
                  <code>{JSON.stringify(x.details)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
