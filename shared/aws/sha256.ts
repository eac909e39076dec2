import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;

/**
 * The SHA-256 the AWS SDK signs our requests with (SigV4: the payload's hash, then an HMAC under
 * the day's signing key), given to every SDK client we make as its `sha256` (`sdkHashing`). It
 * does what the SDK's own node class does, except that a binary HMAC key reaches node:crypto as a
 * KeyObject, made once per key. Given a Buffer, Node 24's `createHmac` first asks whether it is a
 * KeyObject and then whether it is a CryptoKey, each by throwing and catching a TypeError with its
 * stack trace (`isKeyObject`, `isCryptoKey` in its internal/crypto/keys.js): two errors thrown for
 * nothing on every signature, one signature per DynamoDB or SQS call. Measured on Node 24.21: an
 * HMAC under a Buffer key 8.4 µs, under a KeyObject 2.2 µs (docs/performance.md, "Issue 27,
 * eighteenth pass"). String keys take Node's fast path and are passed as they are.
 */
export class Sha256 {
  readonly digestLength = 32;
  readonly #key: string | KeyObject | undefined;
  #hash: Hash | Hmac;
  #finished = false;

  constructor(secret?: SourceData) {
    this.#key = secret === undefined ? undefined : keyOf(secret);
    this.#hash = this.#start();
  }

  update(data: SourceData): void {
    if (this.#finished) throw new Error('Attempted to update an already finished hash.');
    this.#hash.update(typeof data === 'string' ? data : viewOf(data));
  }

  /** An HMAC ends with its digest; a plain hash can be read and then go on (as the SDK's does). */
  async digest(): Promise<Uint8Array> {
    let out: Buffer;
    if (this.#key === undefined) out = (this.#hash as Hash).copy().digest();
    else {
      this.#finished = true;
      out = this.#hash.digest();
    }
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }

  reset(): void {
    this.#hash = this.#start();
    this.#finished = false;
  }

  #start(): Hash | Hmac {
    return this.#key === undefined ? createHash('sha256') : createHmac('sha256', this.#key);
  }
}

/** Binary data as node:crypto takes it: a view as it is, an ArrayBuffer through a view of it. */
const viewOf = (data: ArrayBuffer | ArrayBufferView): NodeJS.ArrayBufferView =>
  data instanceof ArrayBuffer ? new Uint8Array(data) : (data as NodeJS.ArrayBufferView);

/**
 * The KeyObject of each binary key, kept as long as the key itself: the SDK keeps the day's
 * signing key (a Uint8Array) and signs every call under that same object. A key's bytes are
 * copied into its KeyObject, so a key changed in place would go unseen; the SDK never changes one.
 */
const keyObjects = new WeakMap<object, KeyObject>();

const keyOf = (secret: SourceData): string | KeyObject => {
  if (typeof secret === 'string') return secret;
  let key = keyObjects.get(secret);
  if (!key) {
    key = createSecretKey(viewOf(secret));
    keyObjects.set(secret, key);
  }
  return key;
};

/** What every SDK client we make is given: our SHA-256 (above). */
export const sdkHashing = { sha256: Sha256 } as const;
