import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteEveryVersion } from '../../shared/blobs/s3';
import { resetConfig } from '../../shared/config';

/**
 * blobs/s3.ts `deleteEveryVersion` against a versioned bucket (S3 as AWS answers it; the local
 * server keeps no versions): every version and delete marker of every object under the prefix is
 * deleted by its version id, across pages of ListObjectVersions, and the current objects counted.
 */
const versions = (entries: string, next?: { key: string; version: string }) =>
  `<?xml version="1.0" encoding="UTF-8"?><ListVersionsResult><IsTruncated>${Boolean(next)}</IsTruncated>${
    next
      ? `<NextKeyMarker>${next.key}</NextKeyMarker><NextVersionIdMarker>${next.version}</NextVersionIdMarker>`
      : ''
  }${entries}</ListVersionsResult>`;
const version = (key: string, id: string, latest: boolean) =>
  `<Version><Key>${key}</Key><VersionId>${id}</VersionId><IsLatest>${latest}</IsLatest></Version>`;
const marker = (key: string, id: string) =>
  `<DeleteMarker><Key>${key}</Key><VersionId>${id}</VersionId><IsLatest>true</IsLatest></DeleteMarker>`;

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.S3_ENDPOINT;
  resetConfig();
});

describe('deleteEveryVersion', () => {
  it('deletes every version and delete marker by its id, page after page, and counts the current objects', async () => {
    process.env.S3_ENDPOINT = 'http://s3.test';
    resetConfig();
    const deleted: string[] = [];
    const listed: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const method = input instanceof Request ? input.method : 'GET';
      if (method === 'DELETE') {
        deleted.push(`${url.pathname} ${url.searchParams.get('versionId')}`);
        return new Response(null, { status: 204 });
      }
      listed.push(url.searchParams.get('key-marker') ?? '');
      return new Response(
        url.searchParams.has('key-marker')
          ? versions(version('t/a/photo/2', 'v3', true))
          : versions(version('t/a/photo/1', 'v1', false) + marker('t/a/photo/1', 'm1'), {
              key: 't/a/photo/1',
              version: 'm1',
            }),
        { status: 200 },
      );
    });
    expect(await deleteEveryVersion('t/a/photo/')).toBe(1);
    expect(listed).toEqual(['', 't/a/photo/1']);
    expect(deleted.sort()).toEqual(
      [
        '/helpdesk-blobs/t/a/photo/1 v1',
        '/helpdesk-blobs/t/a/photo/1 m1',
        '/helpdesk-blobs/t/a/photo/2 v3',
      ].sort(),
    );
  });
});
