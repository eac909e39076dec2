import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { commitWithDocuments, documentItems, type StagedDocuments, stageDocuments } from '../blobs/documents';
import { deleteBlobs } from '../blobs/s3';
import { notFound } from '../http/errors';
import type { Fields } from '../resources/resource-spec';
import type { NoteInput, ReplyInput, Status, TicketInput } from '../resources/ticket-schema';
import { allocateSequence, releaseSequence } from './counters';
import { db, tableName } from './dynamo';
import { isId, newId } from './ids';
import { keys, RECORD_SK } from './keys';
import { queryAll } from './query-all';
import { type CreateGuard, checkVersion, referenceOp } from './records';
import { deleteKeys } from './sweep';
import { SEARCH_INDEXES } from './table-schema';
import {
  MANAGED_SLOT,
  tagItemMoves,
  ticketCounterMoves,
  ticketIndexAttributes,
  ticketReferenceMoves,
} from './ticket-index';
import { retryStale, type WriteOp, writeAtomically } from './transact';

/**
 * Ticket writes. A ticket is one item collection (`T#<tenant>#TICKET#<id>`): the ticket at `#`,
 * one item per reply (`R#…`), note (`N#…`) and tag (`TAG#…`). Each write is one transaction
 * that also moves counters, tag items and the reference counts of the records it points at.
 */

const TICKET_DEFAULTS: Fields = {
  assignedTo: null,
  cc: [],
  type: null,
  area: null,
  group: null,
  priority: 0,
  status: 'opened',
  source: 'web',
  tags: [],
  memo: null,
  customFields: [],
  tweetId: null,
  tweetType: null,
  facebookId: null,
  facebookType: null,
  linkedinId: null,
  linkedinType: null,
  googlePlusId: null,
  googlePlusType: null,
  youtubeId: null,
  youtubeType: null,
  messageUniqueId: null,
  customPortalId: null,
  toReply: true,
  toReplyCustomer: false,
  closedDate: null,
};

const ticketKey = (tenantId: string, id: string) => keys.record(tenantId, 'TICKET', id);
const missingTicket = (id: string) => notFound(`Ticket ${id}`);

/** Body references `{id}` become plain ids on the stored ticket. */
const storedFields = (input: TicketInput): Fields => {
  const {
    replies: _r,
    attachedDocuments: _d,
    openedBy,
    assignedTo,
    cc,
    type,
    area,
    group,
    ...scalars
  } = input;
  const fields: Fields = { ...scalars };
  if (openedBy !== undefined) fields.openedBy = openedBy.id;
  if (cc !== undefined) fields.cc = [...new Set(cc.map((ref) => ref.id))];
  for (const [name, ref] of Object.entries({ assignedTo, type, area, group })) {
    if (ref !== undefined) fields[name] = ref === null ? null : ref.id;
  }
  return fields;
};

const replyItem = (
  tenantId: string,
  ticketId: string,
  reply: ReplyInput & { id: string },
  now: number,
  path = '',
) => {
  const id = reply.id;
  const replyDate = reply.replyDate ?? now;
  const fromOperator = reply.replyFromOperator?.id ?? null;
  const ops: WriteOp[] = [
    {
      item: {
        Put: {
          Item: {
            pk: ticketKey(tenantId, ticketId).pk,
            sk: keys.reply(replyDate, id),
            entity: 'TICKET_REPLY',
            tenantId,
            ticketId,
            id,
            text: reply.text,
            replyDate,
            replyFromOperator: fromOperator,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ];
  if (fromOperator !== null) {
    const ref = {
      kind: 'AGENT' as const,
      id: fromOperator,
      path: `${path}replyFromOperator.id`,
      label: 'Agent',
    };
    ops.push(referenceOp(tenantId, ref, 0));
  }
  return { id, ops };
};

type NewReply = ReplyInput & { id: string };

const replyOps = (tenantId: string, ticketId: string, replies: NewReply[], now: number): WriteOp[] =>
  replies.flatMap((reply, i) => replyItem(tenantId, ticketId, reply, now, `replies.${i}.`).ops);

/** Replies of a body get their ids first, so that their documents can point at them. */
const withIds = (replies: ReplyInput[] | undefined, now: number): NewReply[] =>
  (replies ?? []).map((reply) => ({ ...reply, id: newId(now) }));

/** The ticket's own documents and those of each reply in the body, staged in S3. */
const stageAll = (
  tenantId: string,
  ticketId: string,
  documents: TicketInput['attachedDocuments'],
  replies: NewReply[],
) =>
  stageDocuments(tenantId, ticketId, [
    { documents, path: 'attachedDocuments', replyId: null },
    ...replies.map((r, i) => ({
      documents: r.attachedDocuments,
      path: `replies.${i}.attachedDocuments`,
      replyId: r.id,
    })),
  ]);

const ticketItem = (tenantId: string, ticket: Fields, version: number): Fields => ({
  ...ticket,
  ...ticketKey(tenantId, ticket.id as string),
  entity: 'TICKET',
  tenantId,
  updatedAt: Date.now(),
  version,
  ...ticketIndexAttributes(tenantId, ticket),
});

/**
 * Creates a ticket numbered `<seq>/<year>` (see allocateSequence for why the number is taken
 * just before the transaction rather than inside it), then writes the ticket, its replies,
 * tags, counts and reference counts in one transaction.
 */
export const insertTicket = async (
  tenantId: string,
  input: TicketInput,
  guard: CreateGuard = () => [],
): Promise<string> => {
  const id = newId();
  const now = Date.now();
  const year = new Date(now).getUTCFullYear();
  const sequence = `TICKET_SEQ#${year}`;
  const replies = withIds(input.replies, now);
  const staged = await stageAll(tenantId, id, input.attachedDocuments, replies);
  const number = await allocateSequence(tenantId, sequence).catch(async (error) => {
    await deleteBlobs(staged.written);
    throw error;
  });
  const ticket: Fields = {
    ...TICKET_DEFAULTS,
    ...storedFields(input),
    id,
    number: `${number}/${year}`,
    insertDate: now,
    managedDate: now,
    numberOfReplies: input.replies?.length ?? 0,
  };
  if (ticket.status === 'closed') ticket.closedDate = now;
  try {
    await commitWithDocuments(staged, () =>
      writeAtomically([
        ...guard(id),
        {
          item: {
            Put: { Item: ticketItem(tenantId, ticket, 1), ConditionExpression: 'attribute_not_exists(pk)' },
          },
        },
        ...ticketCounterMoves(tenantId, ticket),
        ...tagItemMoves(tenantId, ticket),
        ...ticketReferenceMoves(tenantId, ticket),
        ...replyOps(tenantId, id, replies, now),
        ...documentItems(tenantId, id, staged, now),
      ]),
    );
  } catch (error) {
    await releaseSequence(tenantId, sequence, number);
    throw error;
  }
  return id;
};

const readTicket = async (tenantId: string, id: string): Promise<Fields> => {
  if (!isId(id)) throw missingTicket(id);
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: ticketKey(tenantId, id), ConsistentRead: true }),
  );
  if (!out.Item) throw missingTicket(id);
  return out.Item as Fields;
};

/** `closedDate` follows the status: set when it becomes closed, cleared when it is reopened. */
const closedDateAfter = (before: Fields, status: Status | undefined, now: number) => {
  if (status === undefined || status === before.status) return before.closedDate ?? null;
  return status === 'closed' ? now : null;
};

/** Merge update; replies in the body are appended; `managedDate` always moves. */
export const updateTicket = async (
  tenantId: string,
  id: string,
  patch: TicketInput,
  ifMatch?: number,
): Promise<string> => {
  const current = await readTicket(tenantId, id);
  checkVersion(`Ticket ${id}`, current, ifMatch);
  const replies = withIds(patch.replies, Date.now());
  const staged = await stageAll(tenantId, id, patch.attachedDocuments, replies);
  return commitWithDocuments(staged, () =>
    updateTicketItems(tenantId, id, patch, replies, staged, current, ifMatch),
  );
};

const updateTicketItems = (
  tenantId: string,
  id: string,
  patch: TicketInput,
  replies: (ReplyInput & { id: string })[],
  staged: StagedDocuments,
  firstRead: Fields,
  ifMatch: number | undefined,
): Promise<string> => {
  let known: Fields | undefined = firstRead;
  return retryStale(async () => {
    const current = known ?? (await readTicket(tenantId, id));
    known = undefined;
    checkVersion(`Ticket ${id}`, current, ifMatch);
    const now = Date.now();
    const before: Fields = { ...current };
    const after: Fields = {
      ...before,
      ...storedFields(patch),
      managedDate: now,
      closedDate: closedDateAfter(before, patch.status, now),
      numberOfReplies: (before.numberOfReplies as number) + (patch.replies?.length ?? 0),
    };
    await writeAtomically([
      {
        item: {
          Put: {
            Item: ticketItem(tenantId, after, (current.version as number) + 1),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': current.version },
          },
        },
        onConditionFailed: () => 'stale',
      },
      ...ticketCounterMoves(tenantId, after, before),
      ...tagItemMoves(tenantId, after, before),
      ...ticketReferenceMoves(tenantId, after, before),
      ...replyOps(tenantId, id, replies, now),
      ...documentItems(tenantId, id, staged, now),
    ]);
    return id;
  }, 10);
};

/** The ticket-side half of a reply or note: touch `managedDate` (and its index), bump the version. */
const touchTicket = (
  tenantId: string,
  id: string,
  now: number,
  extra: { set?: string; values?: Fields } = {},
) => {
  const managed = SEARCH_INDEXES[MANAGED_SLOT].sort;
  return {
    item: {
      Update: {
        Key: ticketKey(tenantId, id),
        UpdateExpression: `SET managedDate = :now, updatedAt = :now, #managed = :managed${extra.set ?? ''} ADD version :one`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#managed': managed },
        ExpressionAttributeValues: {
          ':now': now,
          ':managed': keys.byManaged(now, id),
          ':one': 1,
          ...extra.values,
        },
      },
    },
    onConditionFailed: () => missingTicket(id),
  } satisfies WriteOp;
};

/**
 * Adds a reply without reading the ticket: one transaction adds the reply, counts it, moves
 * `managedDate` and hands the turn over (an agent's reply means the customer replies next).
 * Concurrent replies conflict on the ticket item and are retried, so every one is kept and counted.
 */
export const replyToTicket = async (
  tenantId: string,
  ticketId: string,
  reply: ReplyInput,
  guard: CreateGuard = () => [],
): Promise<string> => {
  if (!isId(ticketId)) throw missingTicket(ticketId);
  const now = Date.now();
  const fromAgent = Boolean(reply.replyFromOperator);
  const { id, ops } = replyItem(tenantId, ticketId, { ...reply, id: newId(now) }, now);
  const staged = await stageDocuments(tenantId, ticketId, [
    { documents: reply.attachedDocuments, path: 'attachedDocuments', replyId: id },
  ]);
  await commitWithDocuments(staged, () =>
    writeAtomically([
      ...guard(id),
      touchTicket(tenantId, ticketId, now, {
        set: ', toReply = :toReply, toReplyCustomer = :toReplyCustomer, numberOfReplies = numberOfReplies + :one',
        values: { ':toReply': !fromAgent, ':toReplyCustomer': fromAgent },
      }),
      ...ops,
      ...documentItems(tenantId, ticketId, staged, now),
    ]),
  );
  return id;
};

export const addNote = async (
  tenantId: string,
  ticketId: string,
  note: NoteInput,
  guard: CreateGuard = () => [],
): Promise<string> => {
  if (!isId(ticketId)) throw missingTicket(ticketId);
  const now = Date.now();
  const id = newId(now);
  const agents = (['insertBy', 'assignedTo'] as const).flatMap((field) => {
    const agentId = note[field];
    return agentId
      ? [referenceOp(tenantId, { kind: 'AGENT', id: agentId, path: field, label: 'Agent' }, 0)]
      : [];
  });
  await writeAtomically([
    ...guard(id),
    touchTicket(tenantId, ticketId, now),
    {
      item: {
        Put: {
          Item: {
            pk: ticketKey(tenantId, ticketId).pk,
            sk: keys.note(id),
            entity: 'TICKET_NOTE',
            tenantId,
            ticketId,
            id,
            note: note.note,
            insertBy: note.insertBy ?? null,
            assignedTo: note.assignedTo ?? null,
            date: note.date ?? now,
            remindMe: note.remindMe ?? null,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    ...agents,
  ]);
  return id;
};

/** Every item key of a ticket's collection, and the S3 object of each document (consistent, all pages). */
const collectionKeys = async (tenantId: string, id: string) => {
  const found = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': ticketKey(tenantId, id).pk },
    ExpressionAttributeNames: { '#key': 'key' },
    ProjectionExpression: 'pk, sk, #key',
    ConsistentRead: true,
  });
  return {
    items: found.map((item) => ({ pk: item.pk as string, sk: item.sk as string })),
    objects: found.flatMap((item) => (typeof item.key === 'string' ? [item.key] : [])),
  };
};

/** Objects first, records after: a sweep cut short leaves records that a retried delete finds. */
const sweep = async (children: { pk: string; sk: string }[], objects: string[]) => {
  await deleteBlobs(objects);
  await deleteKeys(children);
};

/**
 * Deletes a ticket: one transaction removes the ticket, its tags, its counts and its reference
 * counts, so from that instant it is gone everywhere; then its documents' objects and its
 * replies, notes and document records (any number) are swept. Should the sweep be cut short,
 * a retried delete finds the leftovers and sweeps them.
 */
export const deleteTicket = (tenantId: string, id: string, ifMatch?: number): Promise<string> =>
  retryStale(async () => {
    if (!isId(id)) throw missingTicket(id);
    const [current, { items, objects }] = await Promise.all([
      db().send(
        new GetCommand({ TableName: tableName(), Key: ticketKey(tenantId, id), ConsistentRead: true }),
      ),
      collectionKeys(tenantId, id),
    ]);
    const children = items.filter((k) => k.sk !== RECORD_SK && !k.sk.startsWith('TAG#'));
    if (!current.Item) {
      await sweep(items, objects);
      throw missingTicket(id);
    }
    const before = current.Item as Fields;
    checkVersion(`Ticket ${id}`, before, ifMatch);
    await writeAtomically([
      {
        item: {
          Delete: {
            Key: ticketKey(tenantId, id),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': before.version },
          },
        },
        onConditionFailed: () => 'stale',
      },
      ...ticketCounterMoves(tenantId, undefined, before),
      ...tagItemMoves(tenantId, undefined, before),
      ...ticketReferenceMoves(tenantId, undefined, before),
    ]);
    await sweep(children, objects);
    return id;
  });
