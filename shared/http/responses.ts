import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { responseJson } from './byte-budget';

export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
};

export const json = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResult => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: responseJson(body) as string,
});

export const problemJson = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResult => ({
  statusCode,
  headers: { 'content-type': 'application/problem+json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

/** Strong ETag of a stored version; `If-Match` on update and delete compares against it. */
export const etagOf = (version: unknown): string => `"${Number(version)}"`;
