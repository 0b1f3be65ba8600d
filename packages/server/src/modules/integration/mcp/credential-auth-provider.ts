import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** A white label's OAuth credential: what the authorize page asks for (DECISIONS D52). */
export interface WhiteLabelCredential {
  clientId: string;
  clientSecret: string;
}

/**
 * An MCP OAuth client that completes Bookie's authorization step itself: where a person would open the authorize
 * page in a browser and type the white label's client id and secret, it posts them to the page and keeps the code
 * from the redirect. It keeps its registration, tokens (with the refresh token) and PKCE verifier in memory. Used by
 * `bookie mcp --url …` (stdio) and the tests; an interactive client uses its own provider and a browser.
 */
export class CredentialAuthProvider implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier: string | undefined;
  #code: string | undefined;

  constructor(
    private readonly credential: WhiteLabelCredential,
    private readonly redirect = 'http://127.0.0.1/bookie-mcp/callback',
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'bookie mcp',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    if (!this.#verifier) throw new Error('no PKCE code verifier saved');
    return this.#verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'client') this.#client = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
  }

  /** The authorization code of the last authorize step, once (then forgotten). */
  takeCode(): string | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }

  /**
   * The authorize step: enters the white label's client id and secret on Bookie's authorize page.
   *
   * @throws Error when the page refuses them (a wrong or revoked credential).
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    const page = await fetch(url, { redirect: 'manual' });
    await page.text();
    if (page.status !== 200) throw new Error(`the authorize page answered ${page.status}`);
    const form = new URLSearchParams(url.searchParams);
    form.set('client_id_credential', this.credential.clientId);
    form.set('client_secret', this.credential.clientSecret);
    const res = await fetch(new URL(url.pathname, url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    await res.text();
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) {
      throw new Error(`authorization refused (${res.status}): the credential is wrong or was revoked`);
    }
    const code = new URL(location).searchParams.get('code');
    if (!code) throw new Error('the authorization redirect carries no code');
    this.#code = code;
  }
}

/**
 * Connects an MCP client to `mcpUrl` (Streamable HTTP) with the MCP authorization flow: on the first 401 the
 * provider registers, authorizes with the white label's credential and the code is exchanged; then it connects again.
 * Later 401s are handled by the SDK with the refresh token.
 *
 * @throws Error when authorization is refused.
 */
export async function connectWithCredential(
  mcpUrl: URL,
  provider: CredentialAuthProvider,
  name = 'bookie-mcp',
): Promise<Client> {
  const first = new Client({ name, version: '0.1.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  try {
    await first.connect(transport);
    return first;
  } catch (err) {
    const code = provider.takeCode();
    if (!(err instanceof UnauthorizedError) || !code) throw err;
    await transport.finishAuth(code);
  }
  const client = new Client({ name, version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}
