import { describe, expect, it } from 'vitest';
import { type JsonObject, openApiDocument } from '../../shared/http/openapi';
import { JSON_MEDIA } from '../../shared/http/openapi-examples';
import { routes } from '../../shared/routes';
import { PROBLEM_TYPE_PREFIX, PROBLEM_TYPES } from '../../shared/schemas/problems';
import { contractValidator } from '../helpers/contract';

/**
 * The document's examples are real exchanges of the integration tests (docs/examples.json,
 * `npm run examples`): every operation has one for its request and its success answer, every
 * problem type an answer, and each still matches its schema (a schema change that an example no
 * longer fits fails here: capture them again).
 */
/**
 * Problem types no integration test receives as an answer, so there is no real exchange to show:
 * `line-too-long` is an import line's error (in `GET /import/{id}/errors`), `no-route` is answered
 * by API Gateway's `$default` route (no operation of the document), `merge-limit` takes more
 * merges into one ticket than any test makes, and the rest are races (a duplicate still running,
 * a job changed meanwhile, a write that lost every retry) the tests meet below HTTP only.
 */
const NOT_EXCHANGED: (keyof typeof PROBLEM_TYPES)[] = [
  'line-too-long',
  'no-route',
  'merge-limit',
  'request-in-progress',
  'import-moved',
  'contended',
];

const doc = openApiDocument();
const { schemaErrors } = contractValidator(doc);
type Media = { schema: JsonObject; example?: unknown; examples?: Record<string, { value: unknown }> };
const paths = doc.paths as Record<string, Record<string, JsonObject>>;
const components = doc.components as { responses: Record<string, { content: Record<string, Media> }> };

/** The JSON media of a request body or response; none for HTML, scripts, redirects, 204s. */
const jsonMediaOf = (content: unknown): [string, Media][] =>
  Object.entries((content ?? {}) as Record<string, Media>).filter(([media]) => JSON_MEDIA.test(media));

describe('examples of the OpenAPI document', () => {
  it('shows every operation’s request and success answer as the tests exchanged them, each matching its schema', () => {
    const missing: string[] = [];
    for (const route of routes) {
      const operation = paths[route.path]?.[route.method.toLowerCase()] as JsonObject;
      const [status] = route.responses.success;
      const response = (operation.responses as Record<string, JsonObject>)[String(status)];
      // The document itself is its own example.
      const answers = route.operationId === 'openapi' ? [] : jsonMediaOf(response?.content);
      const requests = jsonMediaOf((operation.requestBody as JsonObject | undefined)?.content);
      for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
        if (parameter.example === undefined) continue;
        const key = `${route.operationId} query ${parameter.name}`;
        expect(schemaErrors(key, parameter.schema as JsonObject, parameter.example), key).toEqual([]);
      }
      for (const [where, list] of [
        ['answer', answers],
        ['request', requests],
      ] as const) {
        for (const [media, { schema, example }] of list) {
          const key = `${route.operationId} ${where} ${media}`;
          // A request shows only members its schema names (the server would ignore others).
          if (example === undefined) missing.push(key);
          else expect(schemaErrors(key, schema, example, where === 'request'), key).toEqual([]);
        }
      }
    }
    expect(missing, 'operations without an example: run `npm run examples`').toEqual([]);
  });

  it('shows an answer of every problem type under its status, each matching its schema', () => {
    const shown: string[] = [];
    for (const [name, response] of Object.entries(components.responses)) {
      const status = Number(name.slice('Problem'.length));
      for (const [media, { schema, examples }] of jsonMediaOf(response.content)) {
        for (const [title, { value }] of Object.entries(examples ?? {})) {
          const key = `${name} ${media} ${title}`;
          expect(schemaErrors(key, schema, value), key).toEqual([]);
          expect((value as { status: number }).status, key).toBe(status);
          shown.push(`${status} ${(value as { type: string }).type}`);
        }
      }
    }
    const catalogue = Object.entries(PROBLEM_TYPES).map(
      ([code, status]) => `${status} ${PROBLEM_TYPE_PREFIX}${code}`,
    );
    expect(
      catalogue.filter((type) => !shown.includes(type)),
      'problem types without an example (capture them: npm run examples)',
    ).toEqual(NOT_EXCHANGED.map((code) => `${PROBLEM_TYPES[code]} ${PROBLEM_TYPE_PREFIX}${code}`));
  });
});
