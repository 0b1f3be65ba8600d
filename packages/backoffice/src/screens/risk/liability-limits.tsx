import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { money, Named } from '../../format.js';
import { MARKET_TYPES } from '../../names.js';
import { DataTable, ErrorBox, Section, useAction } from '../../ui.js';
import { checkDecimal, Field, type Limit, value } from './fields.js';

/** Liability limits per white label, market type and phase: listed, set and removed. */
export function Limits({
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
      <DataTable
        data-testid="limits"
        head={
          <tr>
            <th scope="col">white label</th>
            <th scope="col">market type</th>
            <th scope="col">phase</th>
            <th scope="col" class="num">
              limit
            </th>
            <th scope="col" />
          </tr>
        }
      >
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
      </DataTable>
    </Section>
  );
}
