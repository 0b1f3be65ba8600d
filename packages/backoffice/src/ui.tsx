import type { ComponentChildren, Ref, TableHTMLAttributes } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** Loads data on mount and on `reload()`; `deps` reload it when they change. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string>('');
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setError('');
    load()
      .then((d) => live && setData(d))
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [n, ...deps]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { data, error, reload };
}

/** A readable message of an error. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) return `${e.message} (${e.code})`;
  return e instanceof Error ? e.message : String(e);
}

/** Runs an action, showing its error; returns a [run, busy, error, clear] tuple. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await fn();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clear: () => setError('') };
}

export function ErrorBox({ error }: { error: string }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A table in a focusable scroll region: `head` is the header row, `children` the body rows, `caption` an optional
 * caption, `tableRef` a ref to the table; other props (class, data-testid, handlers) go on the table.
 */
export function DataTable({
  head,
  caption,
  tableRef,
  children,
  ...table
}: Omit<TableHTMLAttributes<HTMLTableElement>, 'children' | 'ref'> & {
  head: ComponentChildren;
  caption?: ComponentChildren;
  tableRef?: Ref<HTMLTableElement>;
  children: ComponentChildren;
}) {
  return (
    <div class="scroll" tabIndex={0}>
      <table ref={tableRef} {...table}>
        {caption !== undefined && <caption>{caption}</caption>}
        <thead>{head}</thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A secret shown once, with the warning that it will not be shown again. */
export function SecretOnce({ label, values }: { label: string; values: Record<string, string> }) {
  return (
    <div class="secret" data-testid="secret-once">
      <strong>{label}</strong> — copy it now: it is shown once.
      <dl>
        {Object.entries(values).map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>
              <code data-field={k}>{v}</code>
            </dd>
          </>
        ))}
      </dl>
    </div>
  );
}

export function fmtTime(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '—';
}

/**
 * Σ of decimal money strings (e.g. `"-12.500000"`), exact: scaled to integers with BigInt, never through a float;
 * written with 2 decimals, truncated towards zero (for display only).
 */
export function sumMoney(values: string[]): string {
  const SCALE = 6;
  let total = 0n;
  for (const v of values) {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v.trim());
    if (!m) continue;
    const frac = (m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE);
    const n = BigInt((m[2] as string) + frac);
    total += m[1] ? -n : n;
  }
  const neg = total < 0n;
  const abs = neg ? -total : total;
  const whole = abs / 10n ** BigInt(SCALE);
  const cents = (abs % 10n ** BigInt(SCALE)) / 10n ** BigInt(SCALE - 2);
  return `${neg ? '-' : ''}${whole}.${String(cents).padStart(2, '0')}`;
}

/** The two UTC days of a report period: `from` (first day) and `to` (the day after the last), as date inputs. */
export function PeriodInputs(props: {
  from: string;
  to: string;
  setFrom: (v: string) => void;
  setTo: (v: string) => void;
}) {
  return (
    <>
      <label>
        From (UTC day)
        <input
          type="date"
          name="from"
          value={props.from}
          onInput={(e) => props.setFrom((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        To (exclusive)
        <input
          type="date"
          name="to"
          value={props.to}
          onInput={(e) => props.setTo((e.target as HTMLInputElement).value)}
        />
      </label>
    </>
  );
}
