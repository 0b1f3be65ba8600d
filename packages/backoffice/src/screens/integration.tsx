import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, fmtTime, SecretOnce, Section, useAction, useLoad } from '../ui.js';
import { announcedText, OPTIONAL_CALLBACKS, type WhiteLabel } from '../white-label.js';

/** Callback URL, IP allowlist, the frame's allowed origins and the callback signing secret. */
export function Integration({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const { data, error, reload } = useLoad(() => api<WhiteLabel>('GET', `/admin/white-labels/${wl}`), [wl]);
  const [url, setUrl] = useState<string | undefined>();
  const [allow, setAllow] = useState<string | undefined>();
  const [origins, setOrigins] = useState<string | undefined>();
  const [saved, setSaved] = useState('');
  const [secret, setSecret] = useState<Record<string, string> | undefined>();
  const act = useAction();
  const save = (body: Record<string, unknown>, what: string) =>
    act.run(async () => {
      await api('PATCH', `/admin/white-labels/${wl}`, body);
      setSaved(`${what} saved`);
      setUrl(undefined);
      setAllow(undefined);
      setOrigins(undefined);
      reload();
    });
  const rotate = () =>
    act.run(async () => {
      const r = await api<{ signing_secret: string; previous_secret_valid_until: string | null }>(
        'POST',
        `/admin/white-labels/${wl}/signing-secret/rotate`,
        {},
      );
      setSecret({ secret: r.signing_secret, previous_valid_until: r.previous_secret_valid_until ?? '—' });
      reload();
    });
  if (!data) return <ErrorBox error={error} />;
  const urlValue = url ?? data.callback_url ?? '';
  const allowValue = allow ?? data.allowlist.join('\n');
  const originsValue = origins ?? (data.allowed_origins ?? []).join('\n');
  return (
    <>
      <ErrorBox error={error || act.error} />
      {saved && <p class="ok">{saved}</p>}
      <Section title="Callback URL">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save({ callback_url: urlValue === '' ? null : urlValue }, 'Callback URL');
          }}
        >
          <label>
            Callback URL
            <input
              name="callback_url"
              value={urlValue}
              disabled={readOnly}
              onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
            />
          </label>
          {!readOnly && <button type="submit">Save callback URL</button>}
        </form>
      </Section>
      <Section title="IP allowlist">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const entries = allowValue
              .split(/[\s,]+/)
              .map((s) => s.trim())
              .filter((s) => s !== '');
            save({ allowlist: entries }, 'Allowlist');
          }}
        >
          <label>
            Addresses and CIDR blocks, one per line
            <textarea
              name="allowlist"
              rows={5}
              value={allowValue}
              disabled={readOnly}
              onInput={(e) => setAllow((e.target as HTMLTextAreaElement).value)}
            />
          </label>
          {!readOnly && <button type="submit">Save allowlist</button>}
        </form>
      </Section>
      <Section title="Betting frame: allowed origins">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const entries = originsValue
              .split(/[\s,]+/)
              .map((s) => s.trim())
              .filter((s) => s !== '');
            save({ allowed_origins: entries }, 'Allowed origins');
          }}
        >
          <label>
            The web sites that embed the frame, one origin per line (e.g. https://www.example.com)
            <textarea
              name="allowed_origins"
              rows={3}
              value={originsValue}
              disabled={readOnly}
              onInput={(e) => setOrigins((e.target as HTMLTextAreaElement).value)}
            />
          </label>
          {!readOnly && <button type="submit">Save allowed origins</button>}
        </form>
      </Section>
      <Section title="Optional callbacks">
        <p>
          What the partner’s callback server implements beyond the mandatory callbacks. Bookie also learns it:
          a 404, 405 or 501 to one marks it unsupported until it is announced again or answered 2xx.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Callback</th>
              <th scope="col">Announced</th>
              <th scope="col">Learnt from answers</th>
              <th scope="col">Bookie relies on it</th>
            </tr>
          </thead>
          <tbody>
            {OPTIONAL_CALLBACKS.map(([name, what]) => {
              const c = data.optional_callbacks?.[name];
              if (!c) return null;
              return (
                <tr key={name} data-callback={name}>
                  <td>
                    <strong>{name.replace('_', ' ')}</strong>
                    <br />
                    <small>{what}</small>
                  </td>
                  <td>
                    {readOnly ? (
                      announcedText(c.announced)
                    ) : (
                      <select
                        aria-label={`${name} announced`}
                        value={c.announced === null ? 'null' : String(c.announced)}
                        disabled={act.busy}
                        onChange={(e) => {
                          const v = (e.target as HTMLSelectElement).value;
                          save(
                            { optional_callbacks: { [name]: v === 'null' ? null : v === 'true' } },
                            `Optional callback ${name}`,
                          );
                        }}
                      >
                        <option value="null">not said</option>
                        <option value="true">implements</option>
                        <option value="false">does not implement</option>
                      </select>
                    )}
                  </td>
                  <td>
                    {c.learnt}
                    {c.last_status !== null ? ` (HTTP ${c.last_status}, ${fmtTime(c.learnt_at)})` : ''}
                  </td>
                  <td class={c.supported ? 'ok' : 'warn'}>{c.supported ? 'yes' : 'no'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Section>
      <Section title="Callback signing">
        <p>
          Signing is {data.signing.enabled ? 'on' : 'off'} (Standard Webhooks). Previous secret valid until:{' '}
          {fmtTime(data.signing.previous_secret_valid_until)}
        </p>
        {secret && <SecretOnce label="New signing secret" values={secret} />}
        {!readOnly && (
          <button type="button" onClick={rotate} disabled={act.busy}>
            Rotate signing secret
          </button>
        )}
      </Section>
    </>
  );
}
