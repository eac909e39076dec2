import captured from '../../docs/examples.json' with { type: 'json' };

type JsonObject = Record<string, unknown>;

/**
 * The document's examples: real exchanges the integration tests made, kept in docs/examples.json
 * by `npm run examples` (local/examples.ts), never written by hand. Each operation's preferred
 * success answer (and the request that got it), and one answer per problem type.
 */
export interface Examples {
  operations: Record<
    string,
    { status: number; query?: Record<string, string>; request?: unknown; response: unknown }
  >;
  /** By problem type (`urn:helpdesk:problem:…`): an answer of that type, its `status` inside. */
  problems: Record<string, unknown>;
}

export const CAPTURED: Examples = captured as Examples;

/** A JSON media type (`application/json`, `application/problem+json`), without parameters. */
export const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/** The media types of a request or response that are JSON. */
const jsonMedia = (content: unknown): JsonObject[] =>
  Object.entries((content ?? {}) as Record<string, JsonObject>)
    .filter(([media]) => JSON_MEDIA.test(media))
    .map(([, value]) => value);

/** An operation's request body and success answer, with the exchange the tests made of it. */
export const withOperationExamples = (operation: JsonObject, examples: Examples): void => {
  const example = examples.operations[operation.operationId as string];
  if (!example) return;
  const responses = operation.responses as Record<string, JsonObject>;
  for (const media of jsonMedia(responses[String(example.status)]?.content)) media.example = example.response;
  // Its query parameters as they were sent (numbers as numbers where the schema says so).
  for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
    const value = parameter.in === 'query' ? example.query?.[parameter.name as string] : undefined;
    if (value === undefined) continue;
    const type = (parameter.schema as { type?: string } | undefined)?.type;
    parameter.example = type === 'integer' || type === 'number' ? Number(value) : value;
  }
  if (example.request === undefined) return;
  for (const media of jsonMedia((operation.requestBody as JsonObject | undefined)?.content))
    media.example = example.request;
};

/** A problem response's examples: every captured problem type it answers with, by the type's name. */
export const problemExamples = (status: number, examples: Examples): JsonObject | undefined => {
  const found = Object.entries(examples.problems)
    .filter(([, body]) => (body as { status?: unknown }).status === status)
    .map(([type, body]) => [
      type.split(':').at(-1) as string,
      { summary: (body as { title?: string }).title ?? type, value: body },
    ]);
  return found.length > 0 ? Object.fromEntries(found) : undefined;
};
