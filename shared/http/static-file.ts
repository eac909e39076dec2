import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { HttpResult } from './responses';

/**
 * Files a route serves as they are (the docs page's renderer): read once per instance, on first
 * use, with their gzip form and a strong ETag derived from the bytes.
 *
 * Where the file is: deployed, next to the function's bundle (the stack copies every file of the
 * route's `files` there, infra/api-function.ts); locally (tsx, tests), at its path in the
 * repository. In a bundle every module's `import.meta.url` is the bundle's own.
 */
export interface StaticFile {
  readonly bytes: Buffer;
  readonly gzipped: Buffer;
  /** Strong: the first 32 hex digits of the SHA-256 of the bytes, quoted. */
  readonly etag: string;
}

const loaded = new Map<string, StaticFile>();

/** Where `repoPath` (e.g. `vendor/redoc/redoc.standalone.js`) may be, first match wins. */
export const candidatesOf = (repoPath: string, base: string | URL = import.meta.url): URL[] => [
  new URL(basename(repoPath), base),
  // This module sits two folders down (shared/http/).
  new URL(`../../${repoPath}`, base),
];

const readFirst = (repoPath: string): Buffer => {
  const tried: string[] = [];
  for (const url of candidatesOf(repoPath)) {
    try {
      return readFileSync(url);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      tried.push(url.pathname);
    }
  }
  throw new Error(`${repoPath} is missing (looked at ${tried.join(', ')})`);
};

export const staticFile = (repoPath: string): StaticFile => {
  let file = loaded.get(repoPath);
  if (!file) {
    const bytes = readFirst(repoPath);
    const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
    file = { bytes, gzipped: gzipSync(bytes, { level: 9 }), etag };
    loaded.set(repoPath, file);
  }
  return file;
};

/** Whether an Accept-Encoding header admits gzip (RFC 9110 §12.5.3: `gzip` or `*`, q > 0). */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean => {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isNaN(weight)) continue;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = weight;
    else if (coding === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
};

/** Whether If-None-Match names this ETag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
const matchesNoneMatch = (ifNoneMatch: string | undefined, etag: string): boolean =>
  (ifNoneMatch ?? '').split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });

/**
 * A 200 with the file (gzip-compressed when the client accepts it, so the renderer crosses the
 * network at a third of its size), or a 304 when the client already holds this version.
 */
export const staticFileResponse = (
  file: StaticFile,
  request: { headers: Record<string, string | undefined> },
  headers: Record<string, string>,
): HttpResult => {
  const validators = { etag: file.etag, vary: 'accept-encoding' };
  if (matchesNoneMatch(request.headers['if-none-match'], file.etag)) {
    // What a 200 would have said of caching (RFC 9110 §15.4.5), nothing of a body it does not have.
    const cacheControl = headers['cache-control'];
    return {
      statusCode: 304,
      headers: { ...validators, ...(cacheControl ? { 'cache-control': cacheControl } : {}) },
    };
  }
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  return {
    statusCode: 200,
    headers: { ...headers, ...validators, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: (gzip ? file.gzipped : file.bytes).toString('base64'),
    isBase64Encoded: true,
  };
};
