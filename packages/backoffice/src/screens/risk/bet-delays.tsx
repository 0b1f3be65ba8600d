import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { MARKET_TYPES } from '../../names.js';
import { DataTable, ErrorBox, Section, useAction } from '../../ui.js';
import { checkDecimal, type Delay, Field, value } from './fields.js';

const LEVELS = { sport_event: 'sport event', market_type: 'market type', risk_group: 'risk group' } as const;

/** Bet delays by level (sport event, market type, risk group) and phase. */
export function Delays({ delays, onChange }: { delays: Delay[]; onChange: () => void }) {
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
      <DataTable
        head={
          <tr>
            <th scope="col">level</th>
            <th scope="col">key</th>
            <th scope="col">phase</th>
            <th scope="col" class="num">
              seconds
            </th>
            <th scope="col" />
          </tr>
        }
      >
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
      </DataTable>
    </Section>
  );
}
