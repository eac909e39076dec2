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
 * The moves of a count element (`ADD #c0 :c0, #c1 :c1…`) as [attribute, delta] pairs; fails on
 * any other expression and on names or values the expression does not use.
 */
export const addsOf = (update: NonNullable<WriteOp['item']['Update']>): [string, number][] => {
  const expression = update.UpdateExpression ?? '';
  if (!/^ADD #c0 :c0(, #c\d+ :c\d+)*$/.test(expression)) throw new Error(`not a count move: ${expression}`);
  const pairs = expression
    .slice('ADD '.length)
    .split(', ')
    .map((pair) => pair.split(' ') as [string, string]);
  const names = update.ExpressionAttributeNames ?? {};
  const values = update.ExpressionAttributeValues ?? {};
  expect(Object.keys(names).sort()).toEqual(pairs.map(([name]) => name).sort());
  expect(Object.keys(values).sort()).toEqual(pairs.map(([, value]) => value).sort());
  return pairs.map(([name, value]) => [names[name] as string, values[value] as number]);
};
