import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { LimitExceeded } from '../store/errors';

/**
 * How much structure a JSON body may carry, whatever its size in bytes. The deepest body the
 * schemas read nests 5 levels (a reply's document in a ticket) and the largest valid one holds a
 * few hundred members; bytes are for long strings (documents, photos). Without these, a body
 * within the byte limit could hold millions of values or nest millions of levels, which
 * JSON.parse alone (before any check of ours) takes seconds and hundreds of MB to build.
 */
export interface JsonLimits {
  /** Arrays and objects inside one another, the body itself included. */
  readonly depth: number;
  /** Array elements and object members, at every depth together. */
  readonly members: number;
}
export const JSON_LIMITS: JsonLimits = { depth: 64, members: 10_000 };

/** The parser's own test of a JSON media type (@middy/http-json-body-parser). */
const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]+\+)?json(;|$)/i;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Index of the quote closing the string that opens at `start` (the text's length if none). */
const stringEnd = (text: string, start: number): number => {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    // Escaped when an odd number of backslashes precede it; each run is counted once.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
};

/**
 * The nesting depth and member count of JSON text, read from the text itself in one pass that
 * skips strings whole (native indexOf) and stops as soon as a limit is passed: milliseconds for
 * any body the byte limit lets through. Text that is not JSON is measured as best it can be;
 * JSON.parse refuses it next.
 */
export const jsonShape = (text: string, limits = JSON_LIMITS): JsonLimits => {
  let depth = 0;
  let deepest = 0;
  let members = 0;
  // Just after `[` or `{`: the next token tells whether the container holds a first member.
  let opened = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue; // whitespace (and control characters, which JSON.parse refuses)
    if (opened && c !== CLOSE_ARRAY && c !== CLOSE_OBJECT) members++;
    opened = false;
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      opened = true;
      if (++depth > deepest) deepest = depth;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    else if (c === COMMA) members++;
    if (deepest > limits.depth || members > limits.members) break;
  }
  return { depth: deepest, members };
};

/**
 * Registered after the byte limit and before the JSON parser, on routes with a body: a JSON body
 * past JSON_LIMITS is a 413 before it is parsed. Bodies of another media type are left to the
 * parser, which answers 415.
 */
export const jsonLimits = (limits = JSON_LIMITS): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (!event.body || !JSON_CONTENT_TYPE.test(event.headers['content-type'] ?? '')) return;
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const { depth, members } = jsonShape(text, limits);
    if (depth > limits.depth) {
      throw new LimitExceeded(`The body must nest at most ${limits.depth} levels of arrays and objects.`);
    }
    if (members > limits.members) {
      throw new LimitExceeded(
        `The body must hold at most ${limits.members} array elements and object members in all.`,
      );
    }
  },
});
