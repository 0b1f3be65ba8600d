import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, fmtTime, SecretOnce, Section, useAction, useLoad } from '../ui.js';

interface Credential {
  client_id: string;
  created_at: string;
  revoked_at: string | null;
}
export interface WhiteLabel {
  id: string;
  name: string;
  mode: string;
  currencies: string[];
  callback_url: string | null;
  limits: { min_stake: string | null; max_stake: string | null; max_payout: string | null };
  bet_interval: number;
  bet_delay: number;
  allowlist: string[];
  /** Web origins the betting frame may be embedded on (its API answers them with CORS). */
  allowed_origins: string[];
  signing: { enabled: boolean; secret?: string; previous_secret_valid_until: string | null };
  credentials?: Credential[];
}

/** Credentials: create (secret shown once), revoke, rotate (a new one, then the old one revoked). */
export function Credentials({ wl, readOnly }: { wl: string; readOnly: boolean }) {
  const { data, error, reload } = useLoad(() => api<WhiteLabel>('GET', `/admin/white-labels/${wl}`), [wl]);
  const [secret, setSecret] = useState<Record<string, string> | undefined>();
  const act = useAction();
  const create = () =>
    act.run(async () => {
      const c = await api<{ client_id: string; client_secret: string }>(
        'POST',
        `/admin/white-labels/${wl}/credentials`,
      );
      setSecret({ client_id: c.client_id, client_secret: c.client_secret });
      reload();
    });
  const revoke = (clientId: string) =>
    act.run(async () => {
      await api('POST', `/admin/white-labels/${wl}/credentials/${encodeURIComponent(clientId)}/revoke`);
      reload();
    });
  const rotate = (clientId: string) =>
    act.run(async () => {
      const c = await api<{ client_id: string; client_secret: string }>(
        'POST',
        `/admin/white-labels/${wl}/credentials`,
      );
      await api('POST', `/admin/white-labels/${wl}/credentials/${encodeURIComponent(clientId)}/revoke`);
      setSecret({ client_id: c.client_id, client_secret: c.client_secret, replaces: clientId });
      reload();
    });
  return (
    <Section title="OAuth credentials">
      <p class="hint">
        Your servers exchange a credential for a token at <code>POST /oauth/token</code> (client credentials).
      </p>
      <ErrorBox error={error || act.error} />
      {secret && <SecretOnce label="New credential" values={secret} />}
      {!readOnly && (
        <button type="button" onClick={create} disabled={act.busy}>
          Create credential
        </button>
      )}
      <table>
        <thead>
          <tr>
            <th>client_id</th>
            <th>created</th>
            <th>revoked</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(data?.credentials ?? []).map((c) => (
            <tr key={c.client_id} data-client-id={c.client_id}>
              <td>
                <code>{c.client_id}</code>
              </td>
              <td>{fmtTime(c.created_at)}</td>
              <td>{c.revoked_at ? fmtTime(c.revoked_at) : 'active'}</td>
              <td>
                {!readOnly && !c.revoked_at && (
                  <>
                    <button type="button" onClick={() => rotate(c.client_id)} disabled={act.busy}>
                      Rotate
                    </button>{' '}
                    <button
                      type="button"
                      class="danger"
                      onClick={() => revoke(c.client_id)}
                      disabled={act.busy}
                    >
                      Revoke
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

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
      const r = await api<{ secret: string; previous_secret_valid_until: string | null }>(
        'POST',
        `/admin/white-labels/${wl}/signing-secret/rotate`,
        {},
      );
      setSecret({ secret: r.secret, previous_valid_until: r.previous_secret_valid_until ?? '—' });
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
