import { gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type JsonObject, openApiDocument } from '../../shared/http/openapi';
import { JSON_MEDIA } from '../../shared/http/openapi-examples';
import type { Route } from '../../shared/routes';

/**
 * Holds responses to the OpenAPI document (shared/http/openapi.ts, published as
 * docs/openapi.json): the status must be one the operation documents; every documented header
 * required there must be present, every header present must be documented (but
 * Content-Type / Content-Length) and match its schema; the media type must be documented, and
 * a JSON body must match its schema, whose objects are closed. Ajv with the 2020-12 dialect
 * (OpenAPI 3.1's) and formats; the document is compiled once per process, each response schema
 * on first use.
 */
type Result = Pick<APIGatewayProxyStructuredResultV2, 'statusCode' | 'headers' | 'body' | 'isBase64Encoded'>;

const ANY_RESPONSE_HEADERS = new Set(['content-type', 'content-length']);
const SCHEMAS = 'urn:helpdesk:openapi';

interface HeaderSpec {
  required?: boolean;
  schema?: JsonObject;
}
interface ResponseSpec {
  headers?: Record<string, HeaderSpec & { $ref?: string }>;
  content?: Record<string, { schema: JsonObject }>;
}

/** `#/components/<kind>/<name>` of the document. */
const resolve = <T>(document: JsonObject, value: T & { $ref?: string }): T => {
  if (!value.$ref) return value;
  const [, , kind, name] = value.$ref.split('/');
  return (document.components as Record<string, Record<string, T>>)[kind as string]?.[name as string] as T;
};

/** `schema` with every object closed to members it does not name (request schemas are open: the server ignores the rest). */
const closed = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as JsonObject).map(([n, s]) => [n, closed(s)]))
        : closed(v),
    ]),
  );
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
};

export const contractValidator = (document: JsonObject = openApiDocument()) => {
  const components = document.components as { schemas: Record<string, JsonObject> };
  // The component schemas as one JSON Schema resource; references point into it.
  const rewrite = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${SCHEMAS}#/$defs/`));
  /** A validator of the document's schemas, or of their closed forms (`strict`). */
  const validatorOf = (strict: boolean) => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const defs = rewrite(components.schemas);
    ajv.addSchema({ $id: SCHEMAS, $defs: strict ? (closed(defs) as JsonObject) : defs });
    const compiled = new Map<string, ValidateFunction>();
    return (key: string, schema: JsonObject): ValidateFunction => {
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(strict ? (closed(rewrite(schema)) as JsonObject) : rewrite(schema));
        compiled.set(key, validate);
      }
      return validate;
    };
  };
  const compile = validatorOf(false);
  let closedCompile: ReturnType<typeof validatorOf> | undefined;
  const errorsOf = (validate: ValidateFunction, where: string): string[] =>
    (validate.errors ?? []).map(
      (e) =>
        `${where}${e.instancePath || ''}: ${e.message}${
          e.keyword === 'additionalProperties' ? ` (${JSON.stringify(e.params.additionalProperty)})` : ''
        }${e.keyword === 'enum' || e.keyword === 'const' ? ` ${JSON.stringify(e.params)}` : ''}`,
    );

  const headerErrors = (key: string, spec: ResponseSpec, headers: Record<string, string>): string[] => {
    const errors: string[] = [];
    const documented = new Map(
      Object.entries(spec.headers ?? {}).map(([name, header]) => [
        name.toLowerCase(),
        resolve(document, header),
      ]),
    );
    for (const [name, header] of documented) {
      const value = headers[name];
      if (value === undefined) {
        if (header.required) errors.push(`header ${name} is required but missing`);
        continue;
      }
      if (!header.schema) continue;
      const integer = header.schema.type === 'integer';
      if (integer && !/^-?\d+$/.test(value)) {
        errors.push(`header ${name}: ${JSON.stringify(value)} is not an integer`);
        continue;
      }
      const validate = compile(`${key} header ${name}`, header.schema);
      if (!validate(integer ? Number(value) : value)) errors.push(...errorsOf(validate, `header ${name}`));
    }
    for (const name of Object.keys(headers)) {
      if (!documented.has(name) && !ANY_RESPONSE_HEADERS.has(name))
        errors.push(`header ${name} is not documented`);
    }
    return errors;
  };

  const bodyErrors = (key: string, spec: ResponseSpec, result: Result, headers: Record<string, string>) => {
    const body = result.body ?? '';
    if (!spec.content) return body === '' ? [] : ['a body where the document says there is none'];
    const mediaType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const media = spec.content[mediaType];
    if (!media) {
      return [
        `content-type ${JSON.stringify(mediaType)} is not one of ${Object.keys(spec.content).join(', ')}`,
      ];
    }
    if (!JSON_MEDIA.test(mediaType)) return body === '' ? ['an empty body'] : [];
    let parsed: unknown;
    try {
      const bytes = result.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
      parsed = JSON.parse(
        (headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8'),
      );
    } catch {
      return ['the body is not JSON'];
    }
    const validate = compile(`${key} ${mediaType}`, media.schema);
    return validate(parsed) ? [] : errorsOf(validate, 'body');
  };

  /** What is wrong with one response of one route; empty when it matches the document. */
  const check = (route: Route, result: Result): string[] => {
    const paths = document.paths as Record<
      string,
      Record<string, { responses: Record<string, ResponseSpec> }>
    >;
    const operation = paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) return [`${route.method} ${route.path} is not in the document`];
    const status = String(result.statusCode ?? 200);
    const documented = operation.responses[status];
    if (!documented) {
      return [
        `status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`,
      ];
    }
    const spec = resolve(document, documented as ResponseSpec & { $ref?: string });
    const headers = Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const key = `${route.operationId} ${status}`;
    return [...headerErrors(key, spec, headers), ...bodyErrors(key, spec, result, headers)];
  };

  /**
   * What is wrong with `value` as an instance of `schema` (one of the document's, its refs into
   * the components); `closed`: also every member no object of it names (what an example must not show).
   */
  const schemaErrors = (key: string, schema: JsonObject, value: unknown, closedObjects = false): string[] => {
    if (closedObjects) closedCompile ??= validatorOf(true);
    const validate = (closedObjects && closedCompile ? closedCompile : compile)(key, schema);
    return validate(value) ? [] : errorsOf(validate, key);
  };

  /** What a request body shows that its route's schema does not name, or breaks (none: it may be an example). */
  const requestErrors = (route: Route, body: unknown): string[] => {
    const paths = document.paths as Record<string, Record<string, { requestBody?: ResponseSpec }>>;
    const schema =
      paths[route.path]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
    return schema ? schemaErrors(`${route.operationId} request`, schema, body, true) : [];
  };

  return { check, schemaErrors, requestErrors, document };
};
