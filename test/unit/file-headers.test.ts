import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadMediaType } from '../../shared/blobs/file-headers';
import { parseDisposition } from '../helpers/disposition';

/** How stored files are named and typed when served (shared/blobs/file-headers.ts). */
describe('contentDisposition', () => {
  it('names any file exactly in filename*, with a safe ASCII fallback, in visible ASCII only', () => {
    const name = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 255 }),
      fc.string({ unit: fc.constantFrom(...'"\\%\'()*;,\r\n\t =/.é😀\u0000\u007f'), minLength: 1 }),
    );
    fc.assert(
      fc.property(name, fc.constantFrom('inline' as const, 'attachment' as const), (n, type) => {
        const header = contentDisposition(type, n);
        expect(header).toMatch(/^[\x20-\x7e]+$/);
        const parsed = parseDisposition(header);
        expect(parsed, header).toBeDefined();
        expect(parsed?.type).toBe(type);
        expect(parsed?.filename).toBe(n.toWellFormed());
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps what is plain, encodes what RFC 5987 does not allow bare', () => {
    expect(contentDisposition('attachment', "it's (a) *draft*.txt")).toBe(
      `attachment; filename="it's (a) *draft*.txt"; filename*=UTF-8''it%27s%20%28a%29%20%2Adraft%2A.txt`,
    );
    expect(contentDisposition('attachment', 'a"b\r\nc%.pdf')).toBe(
      `attachment; filename="a_b__c_.pdf"; filename*=UTF-8''a%22b%0D%0Ac%25.pdf`,
    );
    expect(contentDisposition('inline', 'Größe.png')).toBe(
      `inline; filename="Gr__e.png"; filename*=UTF-8''Gr%C3%B6%C3%9Fe.png`,
    );
  });
});

describe('downloadMediaType', () => {
  it.each([
    'image/png',
    'image/jpeg',
    'application/pdf',
    'text/plain',
    'text/csv',
    'application/octet-stream',
    'application/zip',
    'video/mp4',
    'audio/mpeg',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ])('keeps %s', (type) => {
    expect(downloadMediaType(type)).toBe(type);
  });

  it.each([
    'text/html',
    'TEXT/HTML',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/xml',
    'application/xml',
    'text/javascript',
    'application/javascript',
    'text/css',
    'application/x-shockwave-flash',
    'multipart/x-mixed-replace',
    'text/plainx',
    'application/pdf+html',
    'x/unknown',
  ])('downloads %s as application/octet-stream', (type) => {
    expect(downloadMediaType(type)).toBe('application/octet-stream');
  });
});
