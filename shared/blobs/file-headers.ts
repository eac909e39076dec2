/**
 * How stored files are served: never as something a browser would run. A photo comes from the
 * API's own origin (`GET /customer/photo/{id}`), a document from S3 through a presigned address
 * (`GET /ticket/{id}/attachment/{documentId}`), whose headers only the GET's `response-*`
 * overrides set (S3 can add neither `nosniff` nor a CSP): documents always download
 * (`attachment`), and in a type a browser renders passively (below) or as octet-stream.
 */

/**
 * What the API adds to a file it serves itself: no type sniffing (a GIF/HTML polyglot stays a
 * GIF), a policy that loads nothing, runs nothing and frames nowhere should the file be opened
 * as a page, and no embedding by another site's page.
 */
export const FILE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'cross-origin-resource-policy': 'same-origin',
} as const;

/**
 * Media types a document downloads as: what browsers show without running anything (raster
 * images, sound, video, plain text, PDF in its own viewer) or only save (archives, office
 * files). Others (HTML, SVG, XML, scripts, anything unknown) download as
 * `application/octet-stream`; the document's record keeps the type it was sent with.
 */
const PASSIVE_TYPE =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp|tiff|heic|heif)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/(?:plain|csv)|application\/(?:octet-stream|pdf|zip|gzip|x-7z-compressed|x-tar|json|rtf|msword|vnd\.ms-(?:excel|powerpoint|outlook)|vnd\.openxmlformats-officedocument\.[\w.+-]+|vnd\.oasis\.opendocument\.[\w.+-]+))$/i;

export const downloadMediaType = (contentType: string): string =>
  PASSIVE_TYPE.test(contentType) ? contentType : 'application/octet-stream';

/** RFC 5987 attr-char: what `filename*` may carry unencoded (encodeURIComponent also leaves `'()*!`). */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

const percentEncoded = (name: string): string =>
  Array.from(Buffer.from(name, 'utf8'), (byte) => {
    const c = String.fromCharCode(byte);
    return ATTR_CHAR.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');

/**
 * The ASCII fallback for recipients without RFC 5987: printable ASCII but the quote, the
 * backslash and `%` (which some percent-decode, RFC 6266 appendix D); anything else is `_`.
 */
const asciiFallback = (name: string): string =>
  Array.from(name, (c) => (/^[\x20-\x7e]$/.test(c) && !/["\\%]/.test(c) ? c : '_')).join('');

/**
 * `Content-Disposition` (RFC 6266) naming `name`, whatever it contains: a quoted ASCII
 * `filename` and the exact name as UTF-8 in `filename*` (which recipients prefer). Nothing of
 * the name can end the header or add a parameter: both forms hold only visible ASCII, and
 * the quoted one no quote or backslash. A lone surrogate (never accepted, but in old data)
 * is sent as U+FFFD.
 */
export const contentDisposition = (type: 'inline' | 'attachment', name: string): string => {
  const fallback = asciiFallback(name) || 'file';
  return `${type}; filename="${fallback}"; filename*=UTF-8''${percentEncoded(name) || 'file'}`;
};
