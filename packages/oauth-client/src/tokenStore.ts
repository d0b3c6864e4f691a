/** Tokens for one protected resource, as a token endpoint issued them. */
export interface StoredTokens {
  readonly accessToken: string;
  readonly tokenType: string;
  readonly refreshToken?: string | undefined;
  /** Epoch milliseconds after which the access token is expired; absent when the server did not say. */
  readonly expiresAt?: number | undefined;
  readonly scope?: string | undefined;
  /** The authorization server that issued them; a token from another issuer is never reused. */
  readonly issuer: string;
}

/** A client registration at one authorization server (dynamic, pre-registered, or a metadata-document URL). */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  readonly tokenEndpointAuthMethod?: string | undefined;
}

/**
 * Where the fetch wrapper keeps tokens (per resource) and registrations (per issuer). The CLI persists them in a
 * 0600 file; the default keeps them in memory for the life of the process.
 */
export interface TokenStore {
  getTokens(resource: string): Promise<StoredTokens | undefined>;
  setTokens(resource: string, tokens: StoredTokens | undefined): Promise<void>;
  getClient(issuer: string): Promise<StoredClient | undefined>;
  setClient(issuer: string, client: StoredClient | undefined): Promise<void>;
}

/** A {@link TokenStore} that forgets everything when the process ends. */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredTokens>();
  readonly #clients = new Map<string, StoredClient>();

  async getTokens(resource: string): Promise<StoredTokens | undefined> {
    return this.#tokens.get(resource);
  }

  async setTokens(resource: string, tokens: StoredTokens | undefined): Promise<void> {
    if (tokens === undefined) this.#tokens.delete(resource);
    else this.#tokens.set(resource, tokens);
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return this.#clients.get(issuer);
  }

  async setClient(issuer: string, client: StoredClient | undefined): Promise<void> {
    if (client === undefined) this.#clients.delete(issuer);
    else this.#clients.set(issuer, client);
  }
}
