/** Tokens for one protected resource, as a token endpoint issued them. */
export interface StoredTokens {
  /** The access token sent as `Authorization: Bearer`. */
  readonly accessToken: string;
  /** The token type the server named (`Bearer`, or `DPoP`). */
  readonly tokenType: string;
  /** The refresh token, when the server issued one. */
  readonly refreshToken?: string | undefined;
  /** Epoch milliseconds after which the access token is expired; absent when the server did not say. */
  readonly expiresAt?: number | undefined;
  /** The scopes granted, space-separated, when the server said. */
  readonly scope?: string | undefined;
  /** The authorization server that issued them; a token from another issuer is never reused. */
  readonly issuer: string;
}

/** A client registration at one authorization server (dynamic, pre-registered, or a metadata-document URL). */
export interface StoredClient {
  /** The client id the authorization server knows this client by. */
  readonly clientId: string;
  /** The client secret, for a confidential client. */
  readonly clientSecret?: string | undefined;
  /** How the client authenticates at the token endpoint (`client_secret_basic`, `client_secret_post` or `none`). */
  readonly tokenEndpointAuthMethod?: string | undefined;
}

/**
 * Where the fetch wrapper keeps tokens (per resource) and registrations (per issuer). The CLI persists them in a
 * 0600 file; the default keeps them in memory for the life of the process.
 */
export interface TokenStore {
  /** The tokens kept for `resource`, if any. */
  getTokens(resource: string): Promise<StoredTokens | undefined>;
  /** Keeps `tokens` for `resource`; `undefined` forgets them. */
  setTokens(resource: string, tokens: StoredTokens | undefined): Promise<void>;
  /** The registration kept for the authorization server `issuer`, if any. */
  getClient(issuer: string): Promise<StoredClient | undefined>;
  /** Keeps `client` for `issuer`; `undefined` forgets it. */
  setClient(issuer: string, client: StoredClient | undefined): Promise<void>;
}

/** A {@link TokenStore} that forgets everything when the process ends. */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredTokens>();
  readonly #clients = new Map<string, StoredClient>();

  /** The tokens kept for `resource`, if any. */
  async getTokens(resource: string): Promise<StoredTokens | undefined> {
    return this.#tokens.get(resource);
  }

  /** Keeps `tokens` for `resource`; `undefined` forgets them. */
  async setTokens(resource: string, tokens: StoredTokens | undefined): Promise<void> {
    if (tokens === undefined) this.#tokens.delete(resource);
    else this.#tokens.set(resource, tokens);
  }

  /** The registration kept for `issuer`, if any. */
  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return this.#clients.get(issuer);
  }

  /** Keeps `client` for `issuer`; `undefined` forgets it. */
  async setClient(issuer: string, client: StoredClient | undefined): Promise<void> {
    if (client === undefined) this.#clients.delete(issuer);
    else this.#clients.set(issuer, client);
  }
}
