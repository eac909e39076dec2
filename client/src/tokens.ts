/** What the token route answers (client credentials grant). */
export interface IssuedToken {
  access_token: string;
  expires_in: number;
}

export interface AccessTokenOptions {
  /** Asks the server for a new access token. */
  exchange: () => Promise<IssuedToken>;
  /** The clock, in ms (tests move it). */
  now: () => number;
  /** Share of `expires_in` after which a token is renewed before use (0 < r ≤ 1). */
  renewAt: number;
}

interface Held {
  token: string;
  renewAt: number;
  expiresAt: number;
}

/**
 * The access token of one client: exchanged on first use, renewed once `renewAt` of its
 * lifetime has passed (counted from when the exchange was sent, so a slow answer errs early),
 * or at once after the server refused it (`invalidate`). Concurrent callers share one exchange.
 * If a renewal fails while the held token is still valid, that token is used meanwhile.
 */
export class AccessTokens {
  #held: Held | undefined;
  #pending: Promise<string> | undefined;
  readonly #options: AccessTokenOptions;
  /** Exchanges done so far (observability and tests). */
  exchanges = 0;

  constructor(options: AccessTokenOptions) {
    if (!(options.renewAt > 0 && options.renewAt <= 1)) throw new RangeError('renewAt must be in (0, 1]');
    this.#options = options;
  }

  async get(): Promise<string> {
    const held = this.#held;
    const now = this.#options.now();
    if (held && now < held.renewAt) return held.token;
    this.#pending ??= this.#exchange().finally(() => {
      this.#pending = undefined;
    });
    try {
      return await this.#pending;
    } catch (error) {
      if (held && held === this.#held && this.#options.now() < held.expiresAt) return held.token;
      throw error;
    }
  }

  /** The server refused `token`: forget it, unless a newer one replaced it already. */
  invalidate(token: string): void {
    if (this.#held?.token === token) this.#held = undefined;
  }

  async #exchange(): Promise<string> {
    const sentAt = this.#options.now();
    this.exchanges++;
    const issued = await this.#options.exchange();
    const lifetime = issued.expires_in * 1000;
    this.#held = {
      token: issued.access_token,
      renewAt: sentAt + lifetime * this.#options.renewAt,
      expiresAt: sentAt + lifetime,
    };
    return issued.access_token;
  }
}
