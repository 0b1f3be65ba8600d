import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Session, setCsrf, setWhiteLabel } from './api.js';
import { AuditLog } from './screens/audit-log.js';
import { BetDetail, Bets } from './screens/bets.js';
import { Bonuses } from './screens/bonuses.js';
import { Callbacks } from './screens/callbacks.js';
import { Credentials } from './screens/credentials.js';
import { Heatmap } from './screens/heatmap.js';
import { Home } from './screens/home.js';
import { Integration } from './screens/integration.js';
import { LiveBook } from './screens/live-book.js';
import { Players } from './screens/players.js';
import { Reports } from './screens/reports.js';
import { RiskSettings } from './screens/risk-settings.js';
import { Settlement } from './screens/settlement.js';
import { WhiteLabels } from './screens/white-labels.js';
import './style.css';
import { ErrorBox, messageOf } from './ui.js';

function useHash(): string {
  const [hash, setHash] = useState(location.hash.slice(1) || '/');
  useEffect(() => {
    const on = () => setHash(location.hash.slice(1) || '/');
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function Login({ onLogin }: { onLogin: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  return (
    <main class="login">
      <h1>Bookie backoffice</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError('');
          try {
            onLogin(await api<Session>('POST', '/backoffice/api/session', { email, password }));
          } catch (err) {
            setError(messageOf(err));
          }
        }}
      >
        <label>
          Email
          <input
            name="email"
            type="email"
            autocomplete="username"
            value={email}
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Log in</button>
        <ErrorBox error={error} />
      </form>
    </main>
  );
}

/** The partner's screens (an operator sees them once it opens a white label). */
const PARTNER_SCREENS = [
  ['/credentials', 'Credentials'],
  ['/integration', 'Callback URL, allowlist, signing'],
  ['/callbacks', 'Callback log'],
  ['/bets', 'Bets'],
  ['/players', 'Players'],
  ['/bonuses', 'Bonuses'],
  ['/reports', 'Reports'],
] as const;
/** The operator's screens. */
const OPERATOR_SCREENS = [
  ['/home', 'Home'],
  ['/live-book', 'Live book'],
  ['/heatmap', 'Liability heatmap'],
  ['/risk-settings', 'Risk settings'],
  ['/white-labels', 'White labels'],
  ['/settlement', 'Settlement'],
  ['/audit', 'Audit log'],
] as const;

function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [checked, setChecked] = useState(false);
  const [actingAs, setActingAs] = useState('');
  const [menu, setMenu] = useState(false);
  const hash = useHash();
  useEffect(() => {
    api<Session>('GET', '/backoffice/api/session')
      .then(login)
      .catch(() => {})
      .finally(() => setChecked(true));
  }, []);
  // a chosen screen closes the collapsed menu
  useEffect(() => setMenu(false), [hash]);
  function login(s: Session) {
    setCsrf(s.csrf_token);
    setSession(s);
    if (s.user.role === 'operator' && location.hash === '') location.hash = '#/home';
    if (s.user.role !== 'operator' && location.hash === '') location.hash = '#/credentials';
  }
  async function logout() {
    try {
      await api('DELETE', '/backoffice/api/session');
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) throw e;
    }
    setSession(undefined);
    setWhiteLabel('');
    setActingAs('');
    location.hash = '';
  }
  if (!checked) return null;
  if (!session) return <Login onLogin={login} />;
  const operator = session.user.role === 'operator';
  const wl = operator ? actingAs : (session.user.white_label_id ?? '');
  const readOnly = session.user.role === 'partner_viewer';
  const actAs = (id: string) => {
    setWhiteLabel(id);
    setActingAs(id);
    location.hash = '#/credentials';
  };
  const [path, query = ''] = hash.split('?');
  const [, first, second] = (path ?? '').split('/');
  const params = new URLSearchParams(query);
  let screen = <p>Choose a screen.</p>;
  const needsWl = PARTNER_SCREENS.some(([p]) => p === `/${first}`);
  if (needsWl && !wl) screen = <p>Open a white label first (White labels → Open).</p>;
  else if (first === 'credentials') screen = <Credentials wl={wl} readOnly={readOnly} />;
  else if (first === 'integration') screen = <Integration wl={wl} readOnly={readOnly} />;
  else if (first === 'callbacks') screen = <Callbacks wl={wl} readOnly={readOnly} />;
  else if (first === 'bets' && second)
    screen = <BetDetail wl={wl} id={decodeURIComponent(second)} readOnly={readOnly} />;
  else if (first === 'bets') screen = <Bets wl={wl} />;
  else if (first === 'reports') screen = <Reports wl={wl} />;
  else if (first === 'bonuses') screen = <Bonuses wl={wl} readOnly={readOnly} />;
  else if (first === 'players') screen = <Players wl={wl} readOnly={readOnly} />;
  else if (operator && first === 'home') screen = <Home />;
  else if (operator && first === 'white-labels') screen = <WhiteLabels onActAs={actAs} />;
  else if (operator && first === 'live-book')
    screen = <LiveBook open={second ? decodeURIComponent(second) : undefined} />;
  else if (operator && first === 'heatmap') screen = <Heatmap />;
  else if (operator && first === 'risk-settings')
    screen = <RiskSettings tab={params.get('tab') ?? undefined} />;
  else if (operator && first === 'settlement') screen = <Settlement />;
  else if (operator && first === 'audit') screen = <AuditLog />;
  const link = ([p, name]: readonly [string, string]) => (
    <a
      href={`#${p}`}
      class={path?.startsWith(p) ? 'active' : ''}
      aria-current={path?.startsWith(p) ? 'page' : undefined}
    >
      {name}
    </a>
  );
  return (
    <div class={`shell ${menu ? 'menu-open' : ''}`}>
      <header>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menu}
          aria-controls="screens"
          onClick={() => setMenu(!menu)}
        >
          Menu
        </button>
        <strong>Bookie backoffice</strong>
        <span class="who" data-testid="who">
          {session.user.email} · {session.user.role}
          {wl ? ` · white label ${wl}` : ''}
        </span>
        <button type="button" onClick={logout}>
          Log out
        </button>
      </header>
      <nav id="screens" aria-label="Screens">
        {operator && OPERATOR_SCREENS.map(link)}
        {operator && wl && <span class="nav-group">White label {wl.slice(0, 8)}</span>}
        {(!operator || wl) && PARTNER_SCREENS.map(link)}
      </nav>
      <main>{screen}</main>
    </div>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
