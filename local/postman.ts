import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../shared/http/openapi';

/**
 * A Postman collection (v2.1, which Postman, Newman, Bruno, Insomnia and Hoppscotch import) of
 * every operation of the OpenAPI document, written by `npm run openapi` beside it
 * (docs/helpdesk.postman_collection.json), so it cannot drift from the document. Run in order it
 * is a walk through the API: sign in (the access token is kept), create one of each resource (its
 * id is kept for the requests after), read and change them, remove them. Bodies are the
 * document's examples (real exchanges of the tests), their references pointed at the records the
 * run created. test/integration/npm-start.test.ts runs it with Newman against `npm start`.
 */
export const POSTMAN_FILE = fileURLToPath(
  new URL('../docs/helpdesk.postman_collection.json', import.meta.url),
);

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  auth: 'bearer' | 'basic' | 'none';
  /** The query parameters the document has examples of, and the required ones. */
  query: [string, unknown][];
  body?: unknown;
}

/** Jobs of a record, read at `/<resource>/<job>/{id}` by the job's id, which starting it kept. */
const JOBS: Record<string, string> = { customerExport: 'exportId', customerErase: 'erasureId' };

/**
 * The variable a path's `{id}` reads: the id its resource's insert kept (`/ticket/…` → `ticketId`),
 * or for a job's status (`customerExportStatus`) the job's id its start kept.
 */
const idVariable = (op: Operation): string =>
  (op.operationId.endsWith('Status') ? JOBS[op.operationId.slice(0, -'Status'.length)] : undefined) ??
  `${op.path.split('/')[1]}Id`;

/** What each kind of reference (`{id}`) in a body points at: the record of that kind the run created. */
const REFERENCES: Record<string, string> = {
  openedBy: 'customerId',
  assignedTo: 'agentId',
  replyFromOperator: 'agentId',
  cc: 'agentId',
  type: 'ticketTypeId',
  area: 'ticketAreaId',
  group: 'ticketGroupId',
};
/** References by id alone: a note's agents, a customer's creator. */
const ID_REFERENCES: Record<string, string> = {
  insertBy: 'agentId',
  assignedTo: 'agentId',
  insertByAgentId: 'agentId',
};

/**
 * An example body with its references pointed at the run's records, and without documents sent
 * by `uploadId` (they name a file another request uploaded to a presigned address).
 */
const pointed = (value: unknown, key?: string): unknown => {
  if (Array.isArray(value))
    return value
      .filter((v) => !(v !== null && typeof v === 'object' && 'uploadId' in v))
      .map((v) => pointed(v, key));
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' && key && ID_REFERENCES[key] ? `{{${ID_REFERENCES[key]}}}` : value;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const variable = key ? REFERENCES[key] : undefined;
  if (variable && entries.length === 1 && entries[0]?.[0] === 'id') return { id: `{{${variable}}}` };
  return Object.fromEntries(entries.map(([k, v]) => [k, pointed(v, k)]));
};

/** The run's phases: each request's place in the walk through. */
const phaseOf = (op: Operation): number => {
  if (op.auth === 'basic') return 0;
  if (
    op.method === 'POST' &&
    (op.path.endsWith('/insert') || op.path === '/import' || op.path.endsWith('/upload'))
  )
    return 1;
  if (
    op.method === 'DELETE' ||
    op.operationId === 'customerErase' ||
    op.operationId === 'customerEraseStatus'
  )
    return 3;
  return 2;
};
const PHASES = ['Sign in', 'Create', 'Read and change', 'Remove'];
/** Resources created (and removed, in reverse) so that what a record points at exists first. */
const CREATION_ORDER = [
  'customer',
  'agent',
  'ticketType',
  'ticketArea',
  'ticketGroup',
  'webhook',
  'ticket',
  'import',
];
const creationRank = (op: Operation): number => {
  const rank = CREATION_ORDER.indexOf(op.path.split('/')[1] as string);
  return rank < 0 ? CREATION_ORDER.length : rank;
};

/** Test scripts: keep what later requests need (the access token, created ids, a document id). */
const scriptOf = (op: Operation): string[] => {
  if (op.auth === 'basic')
    return [
      "pm.test('signed in', () => pm.response.to.have.status(200));",
      "if (pm.response.code === 200) pm.collectionVariables.set('accessToken', pm.response.json().access_token);",
    ];
  if (phaseOf(op) === 1 && op.operationId !== 'ticketAttachmentUpload')
    return [
      `if (pm.response.code === 201) pm.collectionVariables.set('${idVariable(op)}', pm.response.json().id);`,
    ];
  const job = JOBS[op.operationId];
  if (job)
    return [`if (pm.response.code < 300) pm.collectionVariables.set('${job}', pm.response.json().id);`];
  if (op.operationId === 'ticketDetail')
    return [
      'const documents = pm.response.code === 200 ? pm.response.json().attachedDocuments : [];',
      "if (documents.length > 0) pm.collectionVariables.set('documentId', documents[0].id);",
    ];
  return [];
};

const requestOf = (op: Operation): JsonObject => {
  const segments = op.path
    .split('/')
    .slice(1)
    .map((s) => s.replace(/^\{(\w+)\}$/, ':$1'));
  const variables = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    key: name,
    value: name === 'id' ? `{{${idVariable(op)}}}` : `{{${name}}}`,
  }));
  const header = [
    ...(op.auth === 'bearer' ? [{ key: 'clientId', value: '{{clientId}}' }] : []),
    ...(op.auth === 'basic' ? [{ key: 'Authorization', value: 'Basic {{apiToken}}' }] : []),
    ...(op.body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }]),
  ];
  const query = op.query.map(([key, value]) => ({ key, value: String(value) }));
  const script = scriptOf(op);
  return {
    name: `${op.tag}: ${op.summary}`,
    ...(script.length > 0
      ? { event: [{ listen: 'test', script: { type: 'text/javascript', exec: script } }] }
      : {}),
    request: {
      method: op.method,
      ...(op.auth === 'bearer' ? {} : { auth: { type: 'noauth' } }),
      header,
      url: {
        raw: `{{baseUrl}}/${segments.join('/')}${query.length > 0 ? `?${query.map((q) => `${q.key}=${q.value}`).join('&')}` : ''}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(query.length > 0 ? { query } : {}),
        ...(variables.length > 0 ? { variable: variables } : {}),
      },
      ...(op.body === undefined
        ? {}
        : {
            body: {
              mode: 'raw',
              raw: JSON.stringify(pointed(op.body), null, 2),
              options: { raw: { language: 'json' } },
            },
          }),
    },
  };
};

/** The collection of a document. Deterministic. */
export const postmanCollection = (document: JsonObject): JsonObject => {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(
    document.paths as Record<string, Record<string, JsonObject>>,
  )) {
    for (const [method, operation] of Object.entries(methods)) {
      const security = operation.security as unknown[] | undefined;
      const body = (operation.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)
        ?.content?.['application/json'];
      const query = ((operation.parameters ?? []) as JsonObject[])
        .filter((p) => p.in === 'query' && (p.example !== undefined || p.required))
        .map((p): [string, unknown] => [
          p.name as string,
          p.example ?? (p.schema as { enum?: unknown[] } | undefined)?.enum?.[0] ?? '',
        ]);
      operations.push({
        query,
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId as string,
        summary: operation.summary as string,
        tag: (operation.tags as string[])[0] as string,
        auth: security === undefined ? 'bearer' : security.length === 0 ? 'none' : 'basic',
        ...(body ? { body: body.example ?? {} } : {}),
      });
    }
  }
  const info = document.info as { title: string; version: string };
  const ids = [...CREATION_ORDER.map((r) => `${r}Id`), ...new Set(Object.values(JOBS)), 'documentId'];
  return {
    info: {
      name: info.title,
      description: `Every operation of the ${info.title} ${info.version}, generated from its OpenAPI document (docs/openapi.json). Set \`baseUrl\`, \`clientId\` and \`apiToken\` (what \`npm start\` prints, or your operator gave you), then run the folders in order: each keeps what the next need.`,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: 'http://localhost:3000' },
      { key: 'clientId', value: '' },
      { key: 'apiToken', value: '' },
      { key: 'accessToken', value: '' },
      ...ids.map((key) => ({ key, value: '' })),
    ],
    item: PHASES.map((name, phase) => ({
      name: `${phase + 1}. ${name}`,
      item: operations
        .filter((op) => phaseOf(op) === phase)
        .map((op, index) => ({ op, index }))
        .sort((a, b) =>
          phase === 1
            ? creationRank(a.op) - creationRank(b.op) || a.index - b.index
            : phase === 3
              ? // Reverse creation order; of one resource, an erasure before its deletion.
                creationRank(b.op) - creationRank(a.op) ||
                Number(a.op.method === 'DELETE') - Number(b.op.method === 'DELETE') ||
                a.index - b.index
              : a.index - b.index,
        )
        .map(({ op }) => requestOf(op)),
    })),
  };
};
