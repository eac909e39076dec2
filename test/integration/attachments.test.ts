import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../shared/store/dynamo';
import { newTenant, type Tenant } from '../helpers/api';
import { listObjects } from '../helpers/bucket';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { parseDisposition } from '../helpers/disposition';
import { gif, jpeg, png } from '../helpers/images';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

let tenant: Tenant;
let api: TenantClient;
let customer: string;

beforeEach(async () => {
  ({ tenant, api, customer } = await tenantWithCustomer());
});

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const ticket = (extra: Record<string, unknown> = {}) => ({
  subject: 's',
  description: 'd',
  openedBy: { id: customer },
  ...extra,
});

/** Every object this tenant has in the bucket. */
const objects = (prefix = `t/${tenant.clientId}/`) => listObjects(prefix);

/** Follows the download address like a client: our 302, then the presigned S3 address. */
const download = async (downloadUrl: string, as: TenantClient = api) => {
  const res = await as.get(downloadUrl);
  if (res.status !== 302) return { status: res.status };
  expect(res.headers.location).toBe(res.body.url);
  const file = await fetch(res.headers.location as string);
  return {
    status: file.status,
    bytes: Buffer.from(await file.arrayBuffer()),
    type: file.headers.get('content-type'),
    disposition: file.headers.get('content-disposition'),
  };
};

describe('attached documents', () => {
  it('round-trips hex (either case), base64 and every byte value on insert, update and reply', async () => {
    const id = await api.create(
      '/ticket/insert',
      ticket({
        attachedDocuments: [
          {
            documentName: 'lower.bin',
            documentType: 'application/octet-stream',
            documentBlob: ALL_BYTES.toString('hex'),
          },
          {
            documentName: 'UPPER.bin',
            documentType: 'application/octet-stream',
            documentBlob: ALL_BYTES.toString('hex').toUpperCase(),
          },
        ],
        replies: [
          {
            text: 'with file',
            attachedDocuments: [
              {
                documentName: 'r.txt',
                documentType: 'text/plain',
                documentBase64: Buffer.from('héllo').toString('base64'),
              },
            ],
          },
        ],
      }),
    );
    await api.put(`/ticket/update/${id}`, {
      attachedDocuments: [
        {
          documentName: 'later.pdf',
          documentType: 'application/pdf',
          documentBase64: ALL_BYTES.toString('base64'),
        },
      ],
    });
    const reply = await api.put(`/ticket/reply/${id}`, {
      text: 'another',
      attachedDocuments: [{ documentName: 'empty.txt', documentType: 'text/plain', documentBlob: '' }],
    });
    expect(reply.status).toBe(200);

    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.attachedDocuments).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        documentName: 'lower.bin',
        documentType: 'application/octet-stream',
        size: 256,
        checksum: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        downloadUrl: expect.stringMatching(new RegExp(`/ticket/${id}/attachment/[0-9a-f]{24}$`)),
      },
      expect.objectContaining({ documentName: 'UPPER.bin', size: 256 }),
      expect.objectContaining({ documentName: 'later.pdf', documentType: 'application/pdf', size: 256 }),
    ]);
    expect(t.replies[0].attachedDocuments).toEqual([
      expect.objectContaining({ documentName: 'r.txt', size: 6 }),
    ]);
    expect(t.replies[1].attachedDocuments).toEqual([
      expect.objectContaining({ documentName: 'empty.txt', size: 0 }),
    ]);

    for (const doc of t.attachedDocuments) {
      const file = await download(doc.downloadUrl);
      expect(file.status).toBe(200);
      expect(file.bytes?.equals(ALL_BYTES)).toBe(true);
      expect(file.type).toBe(doc.documentType);
      expect(file.disposition).toContain(encodeURIComponent(doc.documentName));
    }
    const text = await download(t.replies[0].attachedDocuments[0].downloadUrl);
    expect(text.bytes?.toString()).toBe('héllo');
  });

  it('rejects bad encodings, names and media types by index, writing nothing anywhere', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { documentName: 'a', documentType: 'text/plain', documentBlob: 'abc' },
        'attachedDocuments.1.documentBlob',
      ],
      [
        { documentName: 'a', documentType: 'text/plain', documentBlob: 'zz' },
        'attachedDocuments.1.documentBlob',
      ],
      [
        { documentName: 'a', documentType: 'text/plain', documentBase64: 'a===' },
        'attachedDocuments.1.documentBase64',
      ],
      [
        { documentName: '', documentType: 'text/plain', documentBlob: '00' },
        'attachedDocuments.1.documentName',
      ],
      [{ documentName: 'a', documentType: 'text', documentBlob: '00' }, 'attachedDocuments.1.documentType'],
      [{ documentName: 'a', documentType: 'text/plain' }, 'attachedDocuments.1'],
      [
        { documentName: 'a', documentType: 'text/plain', documentBlob: '00', documentBase64: 'AA==' },
        'attachedDocuments.1',
      ],
    ];
    const good = { documentName: 'ok.txt', documentType: 'text/plain', documentBlob: '6f6b' };
    for (const [bad, path] of cases) {
      const res = await api.post('/ticket/insert', ticket({ attachedDocuments: [good, bad] }));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(bad),
      ).toContain(path);
    }
    expect(await objects()).toEqual([]);
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
  });

  it('answers 413 for a document or a body over its limit, writing nothing', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 1, 7);
    const overDocument = await api.post(
      '/ticket/insert',
      ticket({
        attachedDocuments: [
          {
            documentName: 'big',
            documentType: 'application/octet-stream',
            documentBase64: big.toString('base64'),
          },
        ],
      }),
    );
    expect(overDocument.status).toBe(413);
    expect(overDocument.body.errors[0].path).toBe('attachedDocuments.0');
    const overBody = await api.post(
      '/ticket/insert',
      ticket({
        attachedDocuments: [
          {
            documentName: 'big',
            documentType: 'application/octet-stream',
            documentBlob: big.toString('hex'),
          },
        ],
      }),
    );
    expect(overBody.status).toBe(413);
    expect(await objects()).toEqual([]);
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
  });

  it('removes the uploaded objects when the table transaction fails', async () => {
    const res = await api.post(
      '/ticket/insert',
      ticket({
        assignedTo: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
        attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBlob: '00ff' }],
      }),
    );
    expect(res.status).toBe(400);
    const id = await api.create('/ticket/insert', ticket());
    const reply = await api.put(`/ticket/reply/${id}`, {
      text: 'x',
      replyFromOperator: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
      attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBlob: '00ff' }],
    });
    expect(reply.status).toBe(400);
    expect(await objects()).toEqual([]);
  });

  it('removes the uploaded objects when the store fails mid-write (injected), answering 503', async () => {
    const name = 'inject-transaction-failure';
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') {
          throw Object.assign(new Error('injected'), { name: 'ServiceUnavailable', $fault: 'server' });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const res = await api.post(
        '/ticket/insert',
        ticket({
          attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBlob: '00ff' }],
        }),
      );
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      db().middlewareStack.remove(name);
    }
    expect(await objects()).toEqual([]);
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
  });

  it('deletes the objects with the ticket', async () => {
    const id = await api.create(
      '/ticket/insert',
      ticket({
        attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBlob: '00ff' }],
      }),
    );
    await api.put(`/ticket/reply/${id}`, {
      text: 'x',
      attachedDocuments: [{ documentName: 'b.txt', documentType: 'text/plain', documentBlob: '01' }],
    });
    expect(await objects()).toHaveLength(2);
    const doc = (await api.get(`/ticket/${id}`)).body.attachedDocuments[0];
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    // In the trash its files stay (a restore brings them back), but none downloads.
    expect((await download(doc.downloadUrl)).status).toBe(404);
    expect((await api.del(`/ticket/purge/${id}`)).status).toBe(200);
    expect(await objects()).toHaveLength(2);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await objects()).toEqual([]);
    expect((await download(doc.downloadUrl)).status).toBe(404);
    expect(await collectionItems(tenant.clientId, id)).toEqual([]);
  });

  it('downloads under any name with a well-formed Content-Disposition (quotes, CR/LF, non-ASCII)', async () => {
    const names = [
      'report "final".pdf',
      'a\r\nX-Injected: yes; filename=evil.html',
      "it's (really) *the* 100% plan.txt",
      'Größe – 日本語 😀.txt',
      '..\\..\\windows\\system32.ini',
      '"',
    ];
    const id = await api.create(
      '/ticket/insert',
      ticket({
        attachedDocuments: names.map((documentName) => ({
          documentName,
          documentType: 'text/plain',
          documentBlob: '6f6b',
        })),
      }),
    );
    const docs = (await api.get(`/ticket/${id}`)).body.attachedDocuments;
    expect(docs.map((d: { documentName: string }) => d.documentName)).toEqual(names);
    for (const doc of docs) {
      const file = await download(doc.downloadUrl);
      expect(file.status).toBe(200);
      const disposition = parseDisposition(file.disposition);
      expect(disposition, String(file.disposition)).toMatchObject({
        type: 'attachment',
        filename: doc.documentName,
      });
    }
  });

  it('downloads active media types (HTML, SVG, script) as application/octet-stream attachments', async () => {
    const page = Buffer.from('<html><script>alert(document.domain)</script></html>');
    const types = ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/javascript', 'text/xml'];
    const id = await api.create(
      '/ticket/insert',
      ticket({
        attachedDocuments: types.map((documentType) => ({
          documentName: 'page.html',
          documentType,
          documentBase64: page.toString('base64'),
        })),
      }),
    );
    const docs = (await api.get(`/ticket/${id}`)).body.attachedDocuments;
    // The record keeps what the client declared; only the download is defused.
    expect(docs.map((d: { documentType: string }) => d.documentType)).toEqual(types);
    for (const doc of docs) {
      const file = await download(doc.downloadUrl);
      expect(file.bytes?.equals(page)).toBe(true);
      expect(file.type, doc.documentType).toBe('application/octet-stream');
      expect(parseDisposition(file.disposition)?.type).toBe('attachment');
    }
  });

  it('lets only the owning tenant download', async () => {
    const id = await api.create(
      '/ticket/insert',
      ticket({
        attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBlob: '00ff' }],
      }),
    );
    const doc = (await api.get(`/ticket/${id}`)).body.attachedDocuments[0];
    const other = clientFor(await newTenant());
    expect((await download(doc.downloadUrl, other)).status).toBe(404);
    expect((await api.get(`/ticket/${id}/attachment/bbbbbbbbbbbbbbbbbbbbbbbb`)).status).toBe(404);
  });
});

describe('large files through a presigned upload', () => {
  it('uploads to the presigned address, attaches by uploadId and downloads the same bytes', async () => {
    const upload = await api.post('/ticket/attachment/upload', {
      documentName: 'big.bin',
      documentType: 'application/zip',
    });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({
      uploadId: expect.stringMatching(/^[0-9a-f]{24}$/),
      method: 'PUT',
      expiresIn: 900,
    });
    const bytes = Buffer.concat([ALL_BYTES, Buffer.alloc(6 * 1024 * 1024, 1)]);
    const put = await fetch(upload.body.uploadUrl, {
      method: 'PUT',
      body: bytes,
      headers: upload.body.headers,
    });
    expect(put.status).toBe(200);

    const id = await api.create(
      '/ticket/insert',
      ticket({
        attachedDocuments: [
          { documentName: 'big.bin', documentType: 'application/zip', uploadId: upload.body.uploadId },
        ],
      }),
    );
    const doc = (await api.get(`/ticket/${id}`)).body.attachedDocuments[0];
    expect(doc).toMatchObject({
      documentName: 'big.bin',
      size: bytes.length,
      checksum: expect.stringMatching(/^etag:/),
    });
    const file = await download(doc.downloadUrl);
    expect(file.bytes?.equals(bytes)).toBe(true);
    expect(await objects(`staging/${tenant.clientId}/`)).toEqual([]);

    const again = await api.post(
      '/ticket/insert',
      ticket({
        attachedDocuments: [
          { documentName: 'x', documentType: 'application/zip', uploadId: upload.body.uploadId },
        ],
      }),
    );
    expect(again.status).toBe(400);
    expect(again.body.errors[0].path).toBe('attachedDocuments.0.uploadId');
  });

  it("cannot attach another tenant's upload", async () => {
    const other = clientFor(await newTenant());
    const upload = (
      await other.post('/ticket/attachment/upload', { documentName: 'a', documentType: 'text/plain' })
    ).body;
    await fetch(upload.uploadUrl, { method: 'PUT', body: 'secret', headers: upload.headers });
    const res = await api.post(
      '/ticket/insert',
      ticket({
        attachedDocuments: [{ documentName: 'a', documentType: 'text/plain', uploadId: upload.uploadId }],
      }),
    );
    expect(res.status).toBe(400);
  });
});

const PNG = png(2, 3);
const JPEG = jpeg(640, 480);

describe('customer photo', () => {
  afterEach(async () => {
    // every test below ends with the photos it made removed again (by the cascades of its writes)
    await finishCascades(tenant.clientId);
    expect(await objects()).toEqual([]);
  });

  it('stores, reads, replaces and removes a photo', async () => {
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    const detail = (await api.get(`/customer/${id}`)).body;
    expect(detail.profilePhotoBlob).toBeNull();
    let photo = await api.get(`/customer/photo/${id}`);
    expect(photo.status).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(Buffer.isBuffer(photo.body) && photo.body.equals(PNG)).toBe(true);

    expect(
      (await api.put(`/customer/update/${id}`, { profilePhotoBlob: JPEG.toString('base64') })).status,
    ).toBe(200);
    photo = await api.get(`/customer/photo/${id}`);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.body.equals(JPEG)).toBe(true);
    // The replaced photo goes by the update's cascade.
    expect(await objects()).toHaveLength(2);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await objects()).toHaveLength(1);

    expect((await api.put(`/customer/update/${id}`, { company: 'no photo change' })).status).toBe(200);
    expect(await finishCascades(tenant.clientId)).toBe(0);
    expect(await objects()).toHaveLength(1);
    expect((await api.put(`/customer/update/${id}`, { profilePhotoBlob: null })).status).toBe(200);
    expect((await api.get(`/customer/photo/${id}`)).status).toBe(404);
    await api.del(`/customer/delete/${id}`);
  });

  it('deletes the photo with the customer, and 404s without one', async () => {
    expect((await api.get(`/customer/photo/${customer}`)).status).toBe(404);
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('base64'),
    });
    expect(await objects()).toHaveLength(1);
    await api.del(`/customer/delete/${id}`);
    expect((await api.get(`/customer/photo/${id}`)).status).toBe(404);
  });

  it('accepts images only, within the size limit, writing nothing otherwise', async () => {
    const notImage = await api.post('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: Buffer.from('hello').toString('hex'),
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body.errors[0].path).toBe('profilePhotoBlob');
    const tooBig = await api.post('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]).toString('base64'),
    });
    expect(tooBig.status).toBe(413);
    const duplicate = await api.post('/customer/insert', {
      name: 'P',
      email: 'ada@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    expect(duplicate.status).toBe(409);
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(1);
  });

  it('serves a photo as an inert image: nosniff, a sandboxing CSP, a safe disposition (a GIF/HTML polyglot too)', async () => {
    // A valid 1 × 1 GIF whose comment is a page: sniffed as HTML, it would run in the API's origin.
    const polyglot = gif(1, 1, {
      comment: '<html><body><script>alert(document.domain)</script></body></html>',
    });
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: polyglot.toString('base64'),
    });
    const photo = await api.get(`/customer/photo/${id}`);
    expect(photo.status).toBe(200);
    expect(photo.body.equals(polyglot)).toBe(true);
    expect(photo.headers).toMatchObject({
      'content-type': 'image/gif',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(parseDisposition(photo.headers['content-disposition'] as string)).toEqual({
      type: 'inline',
      fallback: `customer-${id}.gif`,
      filename: `customer-${id}.gif`,
    });
    await api.del(`/customer/delete/${id}`);
  });

  it('refuses a photo declaring more than 4096 × 4096 pixels (the 141-byte PNG of 65,535 × 65,535) with 400, writing nothing', async () => {
    const bomb = png(65_535, 65_535, { totalBytes: 141 });
    expect(bomb.length).toBe(141);
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    const refused = [
      bomb,
      png(4097, 1),
      jpeg(1, 4097),
      gif(4097, 10),
      // A small screen with a frame reaching past it: decoders grow the canvas to the frame.
      gif(10, 10, {
        frames: [
          { width: 10, height: 10 },
          { left: 4000, top: 0, width: 100, height: 10 },
        ],
      }),
    ];
    for (const image of refused) {
      for (const encoding of ['hex', 'base64'] as const) {
        const insert = await api.post('/customer/insert', {
          name: 'Q',
          email: 'q@example.com',
          profilePhotoBlob: image.toString(encoding),
        });
        expect(insert.status, image.subarray(0, 24).toString('hex')).toBe(400);
        expect(insert.body.errors).toEqual([
          { path: 'profilePhotoBlob', message: expect.stringMatching(/at most 4096 × 4096 pixels/) },
        ]);
        const update = await api.put(`/customer/update/${id}`, {
          profilePhotoBlob: image.toString(encoding),
        });
        expect(update.status).toBe(400);
        expect(update.body.errors[0].path).toBe('profilePhotoBlob');
      }
    }
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(2);
    expect(await objects()).toHaveLength(1);
    expect((await api.get(`/customer/photo/${id}`)).body.equals(PNG)).toBe(true);
    // At the bound exactly: accepted.
    expect(
      (await api.put(`/customer/update/${id}`, { profilePhotoBlob: png(4096, 4096).toString('hex') })).status,
    ).toBe(200);
    await api.del(`/customer/delete/${id}`);
  });

  it('refuses a photo whose header cannot be read with 400 naming profilePhotoBlob', async () => {
    const cases = [
      // A PNG signature and nothing after it; IHDR not first.
      Buffer.from('89504e470d0a1a0a', 'hex'),
      Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(4)]),
      // A JPEG whose scan starts before any frame header.
      Buffer.from('ffd8ffda000c03010002110311003f00', 'hex'),
      // A GIF without a frame; a WebP without a bitstream.
      gif(1, 1, { frames: [] }),
      Buffer.from('RIFF\x04\x00\x00\x00WEBP', 'latin1'),
      // The classic polyglot (`GIF89a/*…*/=alert(1)`, 10 799 wide): no frame follows its screen.
      Buffer.from('GIF89a/*\x01\x00\x00\x00\x00*/=alert(1);', 'latin1'),
      // Zero pixels wide.
      png(0, 5),
    ];
    for (const image of cases) {
      const res = await api.post('/customer/insert', {
        name: 'Q',
        email: 'q@example.com',
        profilePhotoBlob: image.toString('base64'),
      });
      expect(res.status, image.toString('hex')).toBe(400);
      expect(res.body.errors).toEqual([
        { path: 'profilePhotoBlob', message: expect.stringMatching(/header cannot be read|at least 1 × 1/) },
      ]);
    }
    expect((await api.get('/customer/list')).body.customer.totalRecords).toBe(1);
  });

  it("does not serve another tenant's photo", async () => {
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    const other = clientFor(await newTenant());
    expect((await other.get(`/customer/photo/${id}`)).status).toBe(404);
    await api.del(`/customer/delete/${id}`);
  });
});
