import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest, notFound } from '../http/errors';
import type { ListQuery } from '../http/list-query';
import type { Fields } from '../resources/resource-spec';
import { parseStatus } from '../resources/ticket-schema';
import { relatedKeys, ticketToApi } from '../resources/ticket-view';
import { getMany } from './batch-get';
import { db, tableName } from './dynamo';
import { isId } from './ids';
import { keys, RECORD_SK, sortableTime } from './keys';
import { type ListRequest, listPage } from './pages';
import { queryAll } from './query-all';
import { LIST_INDEX, SEARCH_INDEXES } from './table-schema';
import { MANAGED_SLOT, TICKET_SEARCH, ticketCountName } from './ticket-index';

/**
 * A detail carries at most this many replies (the most recent ones, oldest first), and stops
 * earlier if their text would pass REPLY_BYTES, so the response stays under Lambda's 6 MB.
 * `numberOfReplies` always counts them all.
 */
export const DETAIL_MAX_REPLIES = 1000;
const REPLY_BYTES = 4_500_000;

const latestReplies = (replies: Fields[]): Fields[] => {
  const kept: Fields[] = [];
  let bytes = 0;
  for (let i = replies.length - 1; i >= 0 && kept.length < DETAIL_MAX_REPLIES; i--) {
    const reply = replies[i] as Fields;
    bytes += Buffer.byteLength(String(reply.text), 'utf8') + 200;
    if (bytes > REPLY_BYTES) break;
    kept.push(reply);
  }
  return kept.reverse();
};

/** One Query over the ticket's item collection (all of its 1 MB pages), then one BatchGet. */
export const readTicketDetail = async (tenantId: string, id: string, baseUrl: string) => {
  if (!isId(id)) throw notFound(`Ticket ${id}`);
  const items = (await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.record(tenantId, 'TICKET', id).pk },
    ConsistentRead: true,
  })) as Fields[];
  const ticket = items.find((item) => item.sk === RECORD_SK);
  if (!ticket) throw notFound(`Ticket ${id}`);
  const replies = latestReplies(items.filter((item) => String(item.sk).startsWith('R#')));
  const notes = items.filter((item) => String(item.sk).startsWith('N#'));
  const documents = items
    .filter((item) => String(item.sk).startsWith('D#'))
    .sort(
      (a, b) =>
        (a.addedAt as number) - (b.addedAt as number) || (a.position as number) - (b.position as number),
    );
  const related = await getMany(relatedKeys(tenantId, [ticket], replies, notes));
  return {
    ticket: ticketToApi(ticket, related, tenantId, baseUrl, { replies, notes, documents }),
    version: ticket.version,
  };
};

const invalid = (param: string, message: string) =>
  badRequest(`${param} ${message}.`, [{ path: param, message }]);

/** The index, partition and counter that serve one ticket search. */
type Plan = Pick<ListRequest, 'index' | 'partition' | 'countName' | 'sortFrom' | 'partitionCountName'>;

const searchPlan = (tenantId: string, param: string, raw: string): Plan => {
  if (param === 'managedDate') {
    if (!/^-?\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
      throw invalid(param, 'must be a millisecond timestamp');
    }
    return {
      index: SEARCH_INDEXES[MANAGED_SLOT],
      partition: keys.managed(tenantId),
      sortFrom: sortableTime(Number(raw)),
      partitionCountName: 'TICKET',
    };
  }
  if (param === 'tags') {
    const tag = raw.trim();
    return {
      index: LIST_INDEX,
      partition: keys.search(tenantId, 'TICKET', 'tags', tag),
      countName: ticketCountName('tags', tag),
    };
  }
  let value = raw;
  if (param === 'status') {
    const status = parseStatus(raw);
    if (!status) throw invalid(param, 'must be one of opened, on hold, solved, closed');
    value = status;
  }
  if (param === 'priority' && raw !== '0' && raw !== '1') throw invalid(param, 'must be 0 or 1');
  const slot = TICKET_SEARCH[param]?.slot;
  if (!slot) throw invalid(param, 'is not searchable');
  return {
    index: SEARCH_INDEXES[slot],
    partition: keys.search(tenantId, 'TICKET', param, value),
    countName: ticketCountName(param, value),
  };
};

/** Tag entries point at tickets; the tickets themselves come in one BatchGet, in entry order. */
const ticketsOf = async (tenantId: string, entries: Fields[]): Promise<Fields[]> => {
  if (entries.every((item) => item.entity === 'TICKET')) return entries;
  const ids = entries.map((entry) => entry.ticketId as string);
  const found = await getMany(ids.map((id) => keys.record(tenantId, 'TICKET', id)));
  return ids.flatMap((id) => {
    const key = keys.record(tenantId, 'TICKET', id);
    const ticket = found.get(`${key.pk}\n${key.sk}`);
    return ticket ? [ticket] : [];
  });
};

/** `GET /ticket/list`: newest first, or one search; each page built with one more BatchGet. */
export const listTickets = (tenantId: string, query: ListQuery, baseUrl: string) => {
  const plan: Plan = query.search
    ? searchPlan(tenantId, ...query.search)
    : { index: LIST_INDEX, partition: keys.list(tenantId, 'TICKET'), countName: 'TICKET' };
  return listPage(
    {
      ...plan,
      tenantId,
      resource: 'TICKET',
      page: query.page,
      cursor: query.cursor,
      filter: query.search ? { [query.search[0]]: query.search[1] } : {},
      listUrl: `${baseUrl}/ticket/list`,
    },
    async (entries) => {
      const tickets = await ticketsOf(tenantId, entries);
      const related = await getMany(relatedKeys(tenantId, tickets));
      return tickets.map((t) => ticketToApi(t, related, tenantId, baseUrl));
    },
  );
};

/** One document record of one ticket of this tenant, or 404. */
export const readDocument = async (tenantId: string, ticketId: string, documentId: string) => {
  const missing = () => notFound(`Document ${documentId} of ticket ${ticketId}`);
  if (!isId(ticketId) || !isId(documentId)) throw missing();
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: keys.record(tenantId, 'TICKET', ticketId).pk, sk: keys.document(documentId) },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) throw missing();
  return out.Item as { key: string; documentName: string; documentType: string };
};
