/**
 * A Content-Disposition value held to the one shape the API sends (RFC 6266 with an RFC 5987
 * `filename*`): the type, a quoted ASCII fallback without quotes, backslashes, percent signs or
 * control characters, then the UTF-8 name with every byte outside attr-char percent-encoded.
 * Undefined when the value has any other shape.
 */
const SHAPE =
  /^(attachment|inline); filename="([\x20\x21\x23\x24\x26-\x5b\x5d-\x7e]+)"; filename\*=UTF-8''((?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+)$/;

export const parseDisposition = (value: string | null | undefined) => {
  const match = SHAPE.exec(value ?? '');
  if (!match) return undefined;
  const [, type, fallback, encoded] = match as unknown as [string, string, string, string];
  return { type, fallback, filename: decodeURIComponent(encoded) };
};
