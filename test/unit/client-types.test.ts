import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTypes, SCHEMA_FILE } from '../../client/scripts/generate-types';
import { type BulkOperations, clientIdOf, HelpdeskError, IDEMPOTENT_ROUTES } from '../../client/src';
import { OPENAPI_DOCUMENT } from '../../shared/routes';

/** The client's types follow docs/openapi.json: regenerated, they are the committed file exactly. */

interface Document {
  paths: Record<string, Record<string, { parameters?: { $ref?: string; name?: string }[] }>>;
}
const document: Document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8'));

describe('client types', () => {
  it(`${SCHEMA_FILE} is up to date with ${OPENAPI_DOCUMENT} (else: npm run client:types)`, async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await generateTypes(document));
  });

  it('sets Idempotency-Keys on exactly the routes whose document takes one', () => {
    const takesKey = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).some((operation) =>
        (operation.parameters ?? []).some(
          (p) => p.name === 'Idempotency-Key' || p.$ref === '#/components/parameters/IdempotencyKey',
        ),
      )
        ? [path]
        : [],
    );
    expect([...IDEMPOTENT_ROUTES].sort()).toEqual(takesKey.sort());
  });

  it("types each bulk operation's body as its own route's (checked by tsc in npm run check)", () => {
    const ok: BulkOperations<'/ticket/bulk'> = [
      { op: 'reply', id: 't1', body: { text: 'hello' } },
      { op: 'addNote', id: 't1', key: 'k', body: { note: 'n' } },
      { op: 'delete', id: 't1', ifMatch: '"3"' },
    ];
    const wrong: BulkOperations<'/ticket/bulk'> = [
      // @ts-expect-error a reply's text is a string
      { op: 'reply', id: 't1', body: { text: 5 } },
      // @ts-expect-error an insert names no record
      { op: 'insert', id: 't1', body: { subject: 's', description: 'd', openedBy: { id: 'c' } } },
    ];
    // @ts-expect-error customers have no replies
    const customer: BulkOperations<'/customer/bulk'> = [{ op: 'reply', id: 'c1', body: { text: 'x' } }];
    expect([ok.length, wrong.length, customer.length]).toEqual([3, 2, 1]);
  });

  it('reads the clientId out of the apiToken', () => {
    expect(clientIdOf(btoa('019a0000:se:cret'))).toBe('019a0000');
    expect(() => clientIdOf('not a token')).toThrow(/clientId/);
  });

  it('makes a HelpdeskError of an answer that is not problem+json', async () => {
    const error = await HelpdeskError.fromResponse(
      new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(error).toMatchObject({
      status: 502,
      type: 'about:blank',
      title: 'Bad Gateway',
      detail: '<html>Bad gateway</html>',
      errors: [],
      requestId: undefined,
    });
    expect(error.message).toBe('502 Bad Gateway: <html>Bad gateway</html>');
  });
});
