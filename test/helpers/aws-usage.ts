import { AsyncLocalStorage } from 'node:async_hooks';
import { AwsClient } from 'aws4fetch';
import { vi } from 'vitest';
import { config } from '../../shared/config';
import { BLOB_AREAS, type BlobArea } from '../../shared/routes';
import { db } from '../../shared/store/dynamo';
import { keys, RATE_PREFIX } from '../../shared/store/keys';

/**
 * Records the AWS permissions the service's code needs while it runs: every DynamoDB command the
 * document client sends and every S3 request (or presigned address) the blob store makes, each
 * turned into the IAM actions that authorise it, and credited to whoever is `acting` at the time
 * (an AsyncLocalStorage scope, so concurrent calls inside one scope are credited to it too).
 * Calls outside any scope (test setup) are not recorded.
 *
 * Permissions are spelled as the route table declares them (shared/routes.ts `dynamo`, `blobs`):
 * - `GetItem`, `Query`, `PutItem`... on the table; `index:Query` on its indexes;
 * - `auth:GetItem`, `auth:BatchGetItem`: reads of clients' items (`CLIENT#`), which only
 *   authentication makes (shared/auth), declared by a route's `auth` rather than its `dynamo`;
 * - `UpdateItem:RATE#`: an UpdateItem of a rate-limit window (the grant conditioned on RATE# keys);
 * - `s3:<action> <area>` for objects under one of BLOB_AREAS (`s3:PutObject staging`), and
 *   `s3:ListBucket`: a read of an object that answered 404, which S3 only says (rather than 403)
 *   to a caller that may list the bucket.
 * Something the mapping does not know is recorded as `unknown:<what>`, which no route declares.
 */
const acting = new AsyncLocalStorage<string>();
const used = new Map<string, Set<string>>();

const note = (permission: string): void => {
  const who = acting.getStore();
  if (who === undefined) return;
  let set = used.get(who);
  if (!set) {
    set = new Set();
    used.set(who, set);
  }
  set.add(permission);
};

/** Runs `work` with every AWS call it makes credited to `who`. */
export const actingAs = <T>(who: string, work: () => Promise<T>): Promise<T> => acting.run(who, work);
/** Who is acting now (the observer of responses checks that a scope's requests reach its route). */
export const actingNow = (): string | undefined => acting.getStore();
/** What `who` needed so far. */
export const usedBy = (who: string): ReadonlySet<string> => used.get(who) ?? new Set();
export const recorded = (): ReadonlyMap<string, ReadonlySet<string>> => used;

type Input = Record<string, unknown>;
const partitionOf = (key: unknown): string => String((key as { pk?: unknown } | undefined)?.pk ?? '');
const CLIENTS = keys.client('').pk;
/** A read of clients' items only: authentication's (a bearer token with its client, Basic credentials). */
const authRead = (action: string, read: unknown[]): string =>
  read.length > 0 && read.every((key) => partitionOf(key).startsWith(CLIENTS)) ? `auth:${action}` : action;

/** The IAM actions one DynamoDB command needs (transactions: those of each of their items). */
export const dynamoPermissions = (command: string, input: Input): string[] => {
  const onIndex = (action: string) => (input.IndexName ? `index:${action}` : action);
  switch (command) {
    case 'GetItemCommand':
      return [authRead('GetItem', [input.Key])];
    case 'BatchGetItemCommand':
      return [
        authRead(
          'BatchGetItem',
          Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).flatMap((r) => r.Keys),
        ),
      ];
    case 'QueryCommand':
      return [onIndex('Query')];
    case 'ScanCommand':
      return [onIndex('Scan')];
    case 'PutItemCommand':
      return ['PutItem'];
    case 'DeleteItemCommand':
      return ['DeleteItem'];
    case 'UpdateItemCommand':
      return [partitionOf(input.Key).startsWith(RATE_PREFIX) ? `UpdateItem:${RATE_PREFIX}` : 'UpdateItem'];
    case 'BatchWriteItemCommand':
      return ['BatchWriteItem'];
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Input[]).map((item) => {
        const [kind, body] = Object.entries(item)[0] as [string, Input];
        if (kind === 'Update' && partitionOf(body.Key).startsWith(RATE_PREFIX))
          return `UpdateItem:${RATE_PREFIX}`;
        return (
          {
            Put: 'PutItem',
            Update: 'UpdateItem',
            Delete: 'DeleteItem',
            ConditionCheck: 'ConditionCheckItem',
          }[kind] ?? `unknown:Transact${kind}`
        );
      });
    case 'TransactGetItemsCommand':
      return (input.TransactItems as Input[]).map(() => 'GetItem');
    default:
      return [`unknown:${command}`];
  }
};

/** Which area of the bucket an object key is in (BLOB_AREAS, `*` standing for one key segment). */
const AREA_PATTERNS = (Object.entries(BLOB_AREAS) as [BlobArea, string][]).map(
  ([area, pattern]) =>
    [
      area,
      new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
    ] as const,
);
export const areaOf = (key: string): string =>
  AREA_PATTERNS.find(([, re]) => re.test(key))?.[0] ?? `unknown:${key}`;

/** The object key an S3 address (path-style, as the local server is reached) names. */
const keyOf = (url: string): string => {
  const path = new URL(url).pathname.split('/').slice(2); // '', bucket, ...key
  return path.map(decodeURIComponent).join('/');
};

const s3Permissions = (method: string, url: string, headers: Headers): string[] => {
  const key = keyOf(url);
  const copySource = headers.get('x-amz-copy-source');
  switch (method) {
    case 'GET':
    case 'HEAD': // HeadObject is authorised by s3:GetObject
      return [`s3:GetObject ${areaOf(key)}`];
    case 'PUT':
      return copySource
        ? [
            `s3:GetObject ${areaOf(copySource.split('/').slice(2).map(decodeURIComponent).join('/'))}`,
            `s3:PutObject ${areaOf(key)}`,
          ]
        : [`s3:PutObject ${areaOf(key)}`];
    case 'DELETE':
      return [`s3:DeleteObject ${areaOf(key)}`];
    default:
      return [`unknown:s3 ${method}`];
  }
};

let installed = false;

/**
 * Starts recording: a middleware on the document client's stack (the one `db()` every store
 * module sends through), a pass-through spy on fetch for the blob store's S3 requests, and one
 * on aws4fetch's signing for presigned addresses (signed, never fetched by the service).
 */
export const recordAwsUsage = (): void => {
  if (installed) return;
  installed = true;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      for (const p of dynamoPermissions(context.commandName ?? '?', args.input as Input)) note(p);
      return next(args);
    },
    { step: 'initialize', name: 'recordPermissions' },
  );

  const s3 = config().S3_ENDPOINT ?? '\0';
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const response = await realFetch(input, init);
    if (request.url.startsWith(s3)) {
      for (const p of s3Permissions(request.method, request.url, request.headers)) note(p);
      // Without s3:ListBucket, S3 answers a read of a missing object 403, not the 404 the code expects.
      if ((request.method === 'GET' || request.method === 'HEAD') && response.status === 404)
        note('s3:ListBucket');
    }
    return response;
  });

  const realSign = AwsClient.prototype.sign;
  vi.spyOn(AwsClient.prototype, 'sign').mockImplementation(async function (
    this: AwsClient,
    ...[input, init]: Parameters<AwsClient['sign']>
  ) {
    // A presigned address acts with the signer's permissions when the client uses it.
    if (init?.aws?.signQuery) {
      for (const p of s3Permissions(init.method ?? 'GET', String(input), new Headers(init.headers))) note(p);
    }
    return realSign.call(this, input, init);
  });
};
