import { expect } from 'vitest';
import { ticketDefaults } from '../../shared/domain/ticket-rules';
import type { CustomerRecord } from '../../shared/store/entities/records';
import type { TicketRecord } from '../../shared/store/entities/ticket';
import type { WriteOp } from '../../shared/store/write-ops';

/** Fixtures and readers shared by the unit tests: records as the store keeps them, write plans summed up. */
export const TENANT = 'tenant1';

/** A well-formed record id (24 lowercase hex characters), distinct per n. */
export const id = (n: number): string => n.toString(16).padStart(24, '0');

export const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

/** The seed's Ticket table, field by field, in its order (the fields beyond it are ours). */
export const SEED_TICKET = [
  'id',
  'number',
  'subject',
  'description',
  'insertDate',
  'managedDate',
  'closedDate',
  'priority',
  'assignedTo',
  'cc',
  'openedBy',
  'numberOfReplies',
  'replies',
  'tags',
  'attachedDocuments',
  'status',
  'type',
  'area',
  'group',
  'memo',
  'source',
  'customFields',
  'ticketNotes',
  'tweetId',
  'tweetType',
  'facebookId',
  'facebookType',
  'linkedinId',
  'linkedinType',
  'googlePlusId',
  'googlePlusType',
  'youtubeId',
  'youtubeType',
  'messageUniqueId',
  'customPortalId',
  'toReply',
  'toReplyCustomer',
];

/** A customer as inserted with only its required fields (the domain fills topClient and language). */
export const customer = (over: Partial<CustomerRecord> = {}): CustomerRecord => ({
  id: id(1),
  createdAt: NOW,
  name: 'Ada',
  email: 'ada@example.com',
  topClient: false,
  language: 'en',
  ...over,
});

export const ticket = (over: Partial<TicketRecord> = {}): TicketRecord => ({
  ...(ticketDefaults() as TicketRecord),
  id: id(100),
  number: '1/2026',
  subject: 'Printer on fire',
  description: 'It is on fire.',
  insertDate: NOW,
  managedDate: NOW,
  closedDate: null,
  numberOfReplies: 0,
  openedBy: id(1),
  ...over,
});

/** Puts and Deletes of a plan, as `Put pk sk` / `Delete pk sk` lines. */
export const itemMoves = (ops: WriteOp[]): string[] =>
  ops.flatMap((op) => {
    if (op.item.Put) return [`Put ${op.item.Put.Item?.pk} ${op.item.Put.Item?.sk}`];
    if (op.item.Delete) return [`Delete ${op.item.Delete.Key?.pk} ${op.item.Delete.Key?.sk}`];
    return [];
  });

/** Runs `fn` and returns what it threw (fails the test when it throws nothing). */
export const thrown = async (fn: () => unknown): Promise<unknown> => {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
};

/**
 * The moves of a count element (`ADD #a :a, #b :b…`) as [attribute, delta] pairs; fails on any
 * other update and on names or values that neither it nor its condition (a reference's
 * existence check) uses.
 */
export const addsOf = (update: NonNullable<WriteOp['item']['Update']>): [string, number][] => {
  const expression = update.UpdateExpression ?? '';
  if (!/^ADD #\w+ :\w+(, #\w+ :\w+)*$/.test(expression)) throw new Error(`not a count move: ${expression}`);
  const pairs = expression
    .slice('ADD '.length)
    .split(', ')
    .map((pair) => pair.split(' ') as [string, string]);
  const names = update.ExpressionAttributeNames ?? {};
  const values = update.ExpressionAttributeValues ?? {};
  const used = `${expression} ${update.ConditionExpression ?? ''}`.match(/[#:]\w+/g) ?? [];
  expect(Object.keys(names).sort()).toEqual([...new Set(used.filter((t) => t.startsWith('#')))].sort());
  expect(Object.keys(values).sort()).toEqual([...new Set(used.filter((t) => t.startsWith(':')))].sort());
  return pairs.map(([name, value]) => [names[name] as string, values[value] as number]);
};

const UPDATE_CLAUSE = /(SET|ADD|REMOVE|DELETE)\s+(.*?)(?=\s+(?:SET|ADD|REMOVE|DELETE)\s|$)/g;
const CLAUSE_ORDER = ['SET', 'REMOVE', 'ADD', 'DELETE'];

/** Whether the parenthesis opening `text` closes at its very end. */
const wrapped = (text: string): boolean => {
  if (!text.startsWith('(')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    if (depth === 0) return i === text.length - 1;
  }
  return false;
};

/** `text` split at ` AND ` / ` OR ` outside parentheses. */
const splitTop = (text: string, op: 'AND' | 'OR'): string[] => {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && text.startsWith(` ${op} `, i)) {
      parts.push(text.slice(start, i));
      start = i + op.length + 2;
    }
  }
  return [...parts, text.slice(start)];
};

/** A condition with only the parentheses its AND/OR nesting needs. */
const canonicalCondition = (text: string): string => {
  let s = text.trim();
  while (wrapped(s)) s = s.slice(1, -1).trim();
  for (const op of ['OR', 'AND'] as const) {
    const parts = splitTop(s, op);
    if (parts.length > 1)
      return parts
        .map((part) => {
          const c = canonicalCondition(part);
          return splitTop(c, 'OR').length > 1 || splitTop(c, 'AND').length > 1 ? `(${c})` : c;
        })
        .join(` ${op} `);
  }
  return s;
};

/**
 * A request element (or anything holding some) with its expressions spelled out: every `#name`
 * and `:value` placeholder replaced by what it stands for (values as JSON, or `?` with
 * `values: false`), update clauses in one order, conditions with only the parentheses they need;
 * the name and value maps dropped. Two elements that say the same to DynamoDB spell the same,
 * whatever their placeholders (the store's expressions are rendered by store/expression.ts).
 */
export const spelled = (x: unknown, options: { values?: boolean } = {}): unknown => {
  if (Array.isArray(x)) return x.map((v) => spelled(v, options));
  if (typeof x !== 'object' || x === null) return x;
  const {
    ExpressionAttributeNames: names = {},
    ExpressionAttributeValues: values = {},
    ...rest
  } = x as Record<string, unknown> & {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
  const expressions = Object.keys(rest).filter((k) => k.endsWith('Expression'));
  if (expressions.length === 0)
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, spelled(v, options)]));
  const resolve = (text: string) =>
    text.replace(/[#:]\w+/g, (token) => {
      if (token.startsWith('#')) return names[token] ?? token;
      if (!(token in values)) return token;
      return options.values === false ? '?' : JSON.stringify(values[token]);
    });
  const out: Record<string, unknown> = { ...rest };
  for (const key of expressions) {
    const text = String(rest[key]);
    if (key === 'UpdateExpression') {
      const clauses = [...text.matchAll(UPDATE_CLAUSE)].map(([, keyword, body]) => [keyword, body] as const);
      clauses.sort((a, b) => CLAUSE_ORDER.indexOf(a[0] as string) - CLAUSE_ORDER.indexOf(b[0] as string));
      out[key] = clauses.map(([keyword, body]) => `${keyword} ${resolve(body as string)}`).join(' ');
    } else if (key === 'ConditionExpression' || key === 'FilterExpression')
      out[key] = resolve(canonicalCondition(text));
    else out[key] = resolve(text);
  }
  return out;
};
