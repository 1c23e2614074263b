// OAuth for remote MCP servers (the MCP authorization spec), as the SDK's `OAuthClientProvider` — and a
// static bearer token from SecretStorage for servers that use one instead (`setBearerToken`): the
// SDK does discovery (protected-resource and authorization-server metadata), dynamic client
// registration, PKCE and refresh; this class keeps what must survive — the registered client and the
// tokens — in SecretStorage (never settings, logs or the store), opens the authorization page in the
// browser, and hands the redirect's code back once the host's URI handler receives it (state checked).
// Only types come from the SDK, so this file stays out of the SDK bundle.
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { SecretsPort } from '../ports';
import { sha256 } from './server-spec';

export interface OAuthHost {
  secrets: SecretsPort;
  /** Where the authorization server sends the browser back (VS Code: vscode://<publisher>.<name>/mcp-oauth). */
  redirectUrl: string;
  /** Opens the authorization page (VS Code: env.openExternal). */
  openAuthorizationPage(url: URL, server: string): Promise<void>;
  log(server: string, line: string): void;
}

/** How long a user has to finish signing in before the start fails (they can Restart). */
export const AUTHORIZATION_WAIT_MS = 5 * 60_000;

export class McpOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  private expectedState?: string;
  private pending?: { resolve(params: URLSearchParams): void; reject(err: Error): void };
  /** A redirect that came back before anyone waited for it (a fast browser). */
  private early?: URLSearchParams;
  private readonly key: string;

  constructor(
    readonly server: string,
    serverUrl: string,
    private readonly host: OAuthHost,
  ) {
    // Bound to the server's URL too: a renamed server keeps nothing, another URL gets nothing.
    this.key = `sextant.mcp.oauth.${server}.${sha256(serverUrl).slice(0, 16)}`;
  }

  get redirectUrl(): string {
    return this.host.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Sextant (VS Code)',
      redirect_uris: [this.host.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex');
    return this.expectedState;
  }

  private async read<T>(what: string): Promise<T | undefined> {
    const raw = await this.host.secrets.get(`${this.key}.${what}`);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  }

  clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    return this.read<StoredOAuthClientInformation>('client');
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    await this.host.secrets.set(`${this.key}.client`, JSON.stringify(info));
  }

  /** A static bearer token the user stored for this server wins over OAuth tokens. */
  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const fixed = await this.host.secrets.get(`${this.key}.bearer`);
    if (fixed) return { access_token: fixed, token_type: 'Bearer' };
    return this.read<StoredOAuthTokens>('tokens');
  }

  /** Stores (or, with '', removes) a static bearer token for servers that use one instead of OAuth. */
  async setBearerToken(token: string): Promise<void> {
    if (token) await this.host.secrets.set(`${this.key}.bearer`, token);
    else await this.host.secrets.delete(`${this.key}.bearer`);
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.host.secrets.set(`${this.key}.tokens`, JSON.stringify(tokens));
    this.host.log(this.server, 'signed in (tokens kept in SecretStorage)');
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.host.log(this.server, `opening the sign-in page of ${url.origin}`);
    await this.host.openAuthorizationPage(url, this.server);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the sign-in was not started here');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') await this.host.secrets.delete(`${this.key}.client`);
    if (scope === 'all' || scope === 'tokens') await this.host.secrets.delete(`${this.key}.tokens`);
    if (scope === 'all') await this.host.secrets.delete(`${this.key}.bearer`);
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  /** Forgets everything stored for this server (sign out). */
  signOut(): Promise<void> {
    return this.invalidateCredentials('all');
  }

  /** Waits for the browser to come back with this sign-in's redirect (`receiveRedirect`). */
  waitForRedirect(signal?: AbortSignal): Promise<URLSearchParams> {
    const early = this.early;
    this.early = undefined;
    if (early) return early.get('error') ? Promise.reject(refused(early)) : Promise.resolve(early);
    this.pending?.reject(new Error('a newer sign-in started'));
    return new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error('the sign-in was not finished in 5 minutes')),
        AUTHORIZATION_WAIT_MS,
      );
      const done = (err?: Error, params?: URLSearchParams) => {
        clearTimeout(timer);
        this.pending = undefined;
        if (err) reject(err);
        else if (params) resolve(params);
      };
      signal?.addEventListener('abort', () => done(new Error('the sign-in was cancelled')), { once: true });
      this.pending = { resolve: (p) => done(undefined, p), reject: (e) => done(e) };
    });
  }

  /**
   * The redirect back from the authorization server. True if it belonged to this provider's sign-in
   * (its state matched); a mismatched or unexpected redirect is ignored.
   */
  receiveRedirect(params: URLSearchParams): boolean {
    if (!this.expectedState || params.get('state') !== this.expectedState) return false;
    this.expectedState = undefined;
    if (!this.pending) this.early = params;
    else if (params.get('error')) this.pending.reject(refused(params));
    else this.pending.resolve(params);
    return true;
  }
}

function refused(params: URLSearchParams): Error {
  return new Error(`the authorization server refused the sign-in: ${params.get('error')}`);
}
