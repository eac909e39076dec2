import { parseStatus, STATUSES, type Status } from '../schemas/ticket';

/**
 * The search query language (issue 23; docs/decisions.md, "Search query language"), parsed into a tree before anything runs:
 *
 *     refund "credit card" -spam (urgent OR asap) refun* status:opened created>2026-01-01
 *
 * - words: all must match (`refund card`); `OR` (upper case) between two parts matches either,
 *   and binds tighter than the implicit AND: `a b OR c` is `a AND (b OR c)`;
 * - `"exact phrase"`; a word ending in `*` is a prefix (`refun*`);
 * - `-` before a word, phrase, group or filter excludes it; parentheses group;
 * - filters: `status:opened` (`onhold` reads as `on hold`), `priority:0|1`, `tag:<tag>`, and the
 *   ids `assignedTo:`, `openedBy:`, `type:`, `area:`, `group:`; `created` and `updated` with `:`
 *   (that day, UTC), `>`, `>=`, `<`, `<=` and a date (`2026-01-01`) or an ISO 8601 time;
 *   `has:attachment`.
 *
 * A malformed query is refused with the position (1-based, in characters) where it goes wrong:
 * `QuerySyntaxError`. Sizes are bounded so that no query is costly to plan: `QUERY_LIMITS`.
 */
export type IdField = 'assignedTo' | 'openedBy' | 'type' | 'area' | 'group';
export type DateField = 'created' | 'updated';
export type Comparison = '<' | '<=' | '>' | '>=';

export type QueryNode =
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  | { kind: 'word'; text: string; prefix: boolean }
  | { kind: 'phrase'; text: string }
  | { kind: 'status'; value: Status }
  | { kind: 'priority'; value: 0 | 1 }
  | { kind: 'tag'; value: string }
  | { kind: 'id'; field: IdField; value: string }
  | { kind: 'date'; field: DateField; op: Comparison; at: number }
  | { kind: 'has'; value: 'attachment' };

export const QUERY_LIMITS = {
  /** Characters of the whole query. */
  length: 1000,
  /** Words, phrases and filters. */
  terms: 50,
  /** Nested parentheses. */
  depth: 10,
} as const;

export class QuerySyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based, in characters (code points) of the query. */
    readonly position: number,
  ) {
    super(`${message} (at position ${position})`);
    this.name = 'QuerySyntaxError';
  }
}

const ID_FIELDS: readonly IdField[] = ['assignedTo', 'openedBy', 'type', 'area', 'group'];
const DATE_FIELDS: readonly DateField[] = ['created', 'updated'];
const FIELDS = ['status', 'priority', 'tag', 'has', ...ID_FIELDS, ...DATE_FIELDS];
const DAY_MS = 86_400_000;
/** How a status is written in a query (no spaces: `onhold`). */
const STATUS_WORDS = STATUSES.map((s) => s.replace(' ', '')).join(', ');

type Token =
  | { type: 'lparen' | 'rparen' | 'or' | 'minus'; at: number }
  | { type: 'phrase'; text: string; at: number }
  | { type: 'word'; text: string; at: number };

const SPECIAL = new Set(['(', ')', '"']);
const isSpace = (c: string) => /\s/u.test(c);

/** The query's tokens; `at` is the 1-based character position of each. */
const tokenize = (chars: string[]): Token[] => {
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    const at = i + 1;
    if (isSpace(c)) i++;
    else if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'lparen' : 'rparen', at });
      i++;
    } else if (c === '"') {
      const end = chars.indexOf('"', i + 1);
      if (end < 0) throw new QuerySyntaxError('this quote is never closed', at);
      const text = chars
        .slice(i + 1, end)
        .join('')
        .trim();
      if (!text) throw new QuerySyntaxError('an empty phrase', at);
      tokens.push({ type: 'phrase', text, at });
      i = end + 1;
    } else if (c === '-' && i + 1 < chars.length && !isSpace(chars[i + 1] as string)) {
      // Only at the start of a term: `re-open` is one word.
      tokens.push({ type: 'minus', at });
      i++;
    } else {
      let end = i;
      while (end < chars.length && !isSpace(chars[end] as string) && !SPECIAL.has(chars[end] as string))
        end++;
      const text = chars.slice(i, end).join('');
      tokens.push(text === 'OR' ? { type: 'or', at } : { type: 'word', text, at });
      i = end;
    }
  }
  return tokens;
};

/** Epoch ms of a date (`2026-01-01`, midnight UTC) or an ISO 8601 time with its zone; undefined if neither. */
const instant = (value: string): { at: number; day: boolean } | undefined => {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const at = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return new Date(at).toISOString().startsWith(value) ? { at, day: true } : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value))
    return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : { at, day: false };
};

/** A filter (`name:value`, `name>value`, …) or undefined when `text` is not one. */
const filterOf = (text: string, at: number): QueryNode | undefined => {
  const match = /^([A-Za-z]+)(:|>=|<=|>|<)(.*)$/su.exec(text);
  if (!match) return undefined;
  const [, name = '', op = '', value = ''] = match;
  const field = FIELDS.find((f) => f.toLowerCase() === name.toLowerCase());
  if (!field) {
    if (op !== ':') return undefined;
    throw new QuerySyntaxError(
      `unknown field '${name}' (fields: ${FIELDS.join(', ')}; put text with a colon in quotes)`,
      at,
    );
  }
  const valueAt = at + name.length + op.length;
  if (!value) throw new QuerySyntaxError(`'${field}${op}' needs a value`, valueAt);
  const date = (DATE_FIELDS as readonly string[]).includes(field);
  if (!date && op !== ':')
    throw new QuerySyntaxError(`'${field}' is compared with ':' only`, valueAt - op.length);
  const refuse = (expected: string) => {
    throw new QuerySyntaxError(`'${value}' is not ${expected}`, valueAt);
  };
  if (date) {
    const when = instant(value) ?? refuse('a date (2026-01-01) or an ISO 8601 time with its zone');
    const dateField = field as DateField;
    if (op !== ':') return { kind: 'date', field: dateField, op: op as Comparison, at: when.at };
    if (!when.day) refuse('a date (2026-01-01): a day is compared with ":"');
    return {
      kind: 'and',
      children: [
        { kind: 'date', field: dateField, op: '>=', at: when.at },
        { kind: 'date', field: dateField, op: '<', at: when.at + DAY_MS },
      ],
    };
  }
  switch (field) {
    case 'status':
      return {
        kind: 'status',
        value: parseStatus(value) ?? refuse(`a status (${STATUS_WORDS})`),
      };
    case 'priority':
      return value === '0' || value === '1'
        ? { kind: 'priority', value: Number(value) as 0 | 1 }
        : refuse('0 or 1');
    case 'tag':
      return { kind: 'tag', value };
    case 'has':
      return value.toLowerCase() === 'attachment'
        ? { kind: 'has', value: 'attachment' }
        : refuse('attachment');
    default:
      return { kind: 'id', field: field as IdField, value };
  }
};

/** `query` as a tree; throws QuerySyntaxError when it is malformed or too large. */
export const parseQuery = (query: string): QueryNode => {
  const chars = [...query];
  if (chars.length > QUERY_LIMITS.length)
    throw new QuerySyntaxError(
      `a query has at most ${QUERY_LIMITS.length} characters`,
      QUERY_LIMITS.length + 1,
    );
  const tokens = tokenize(chars);
  if (tokens.length === 0) throw new QuerySyntaxError('the query is empty', 1);
  let next = 0;
  let terms = 0;
  const end = chars.length + 1;
  const peek = () => tokens[next];

  const term = (depth: number): QueryNode => {
    const token = tokens[next++];
    if (!token) throw new QuerySyntaxError('the query ends where a word, phrase or filter was expected', end);
    switch (token.type) {
      case 'minus':
        return { kind: 'not', child: term(depth) };
      case 'lparen': {
        if (depth >= QUERY_LIMITS.depth)
          throw new QuerySyntaxError(`parentheses nest at most ${QUERY_LIMITS.depth} deep`, token.at);
        if (peek()?.type === 'rparen') throw new QuerySyntaxError('empty parentheses', token.at);
        const inner = conjunction(depth + 1);
        if (peek()?.type !== 'rparen')
          throw new QuerySyntaxError('this parenthesis is never closed', token.at);
        next++;
        return inner;
      }
      case 'rparen':
        throw new QuerySyntaxError('a closing parenthesis with none open', token.at);
      case 'or':
        throw new QuerySyntaxError("'OR' needs something on both sides", token.at);
      case 'phrase':
        counted(token.at);
        return { kind: 'phrase', text: token.text };
      case 'word': {
        counted(token.at);
        const filter = filterOf(token.text, token.at);
        if (filter) return filter;
        const star = token.text.indexOf('*');
        if (star >= 0 && star !== token.text.length - 1)
          throw new QuerySyntaxError(
            "'*' may only end a word (refun*)",
            token.at + [...token.text.slice(0, star)].length,
          );
        if (token.text === '*')
          throw new QuerySyntaxError("'*' ends a word: at least one letter before it", token.at);
        return star < 0
          ? { kind: 'word', text: token.text, prefix: false }
          : { kind: 'word', text: token.text.slice(0, -1), prefix: true };
      }
    }
  };
  const counted = (at: number) => {
    if (++terms > QUERY_LIMITS.terms)
      throw new QuerySyntaxError(`a query has at most ${QUERY_LIMITS.terms} words, phrases and filters`, at);
  };
  /** Terms joined by OR: it binds tighter than the implicit AND. */
  const disjunction = (depth: number): QueryNode => {
    const children = [term(depth)];
    while (peek()?.type === 'or') {
      const or = tokens[next++] as Token;
      const after = peek();
      if (!after || after.type === 'or' || after.type === 'rparen')
        throw new QuerySyntaxError("'OR' needs something on both sides", or.at);
      children.push(term(depth));
    }
    return children.length === 1 ? (children[0] as QueryNode) : { kind: 'or', children };
  };
  /** Parts side by side: all must match. */
  const conjunction = (depth: number): QueryNode => {
    const children = [disjunction(depth)];
    for (let t = peek(); t && t.type !== 'rparen'; t = peek()) children.push(disjunction(depth));
    return children.length === 1 ? (children[0] as QueryNode) : { kind: 'and', children };
  };

  const tree = conjunction(0);
  const left = peek();
  if (left) throw new QuerySyntaxError('a closing parenthesis with none open', left.at);
  return tree;
};
