import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { percent } from '../../format.js';
import { ErrorBox, Section, useAction, useLoad } from '../../ui.js';
import { Field, value } from './fields.js';

/** The cash-out margin: the default and per white label. */
export function Margins({
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
