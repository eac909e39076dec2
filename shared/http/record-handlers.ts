import { deleteRecord, insertRecord, type RecordResource, updateRecord } from '../domain/records';
import type { OperationId } from '../routes';
import type { BaseRecord, RecordEntity } from '../store/entities/records';
import { listRecords } from '../store/record-pages';
import { getRecord } from '../store/record-reads';
import { apiHandler } from './api-handler';
import { listRequest } from './list-query';
import { etagOf, json } from './responses';
import { pageResponse } from './views/page';
import type { View } from './views/records';

/**
 * The five operations every record resource has (customers, agents, lookups), built once.
 * Each functions/<resource>-<operation>.ts is one call to one of these. Reads go to the store
 * and its view; writes to the domain's record service.
 */
type Shape<T extends BaseRecord> = (record: T, baseUrl: string) => View;

export const listHandler = <T extends BaseRecord>(
  operationId: OperationId & `${string}List`,
  entity: RecordEntity<T>,
  listKey: string,
  view: Shape<T>,
) =>
  apiHandler(operationId, async ({ tenantId, query, rawQuery, baseUrl, routeUrl, compat }) => {
    const { query: list, filter } = listRequest(query, rawQuery);
    const page = await listRecords(entity, tenantId, list);
    return compat.page(listKey, await pageResponse(page, (r) => view(r, baseUrl), routeUrl, filter));
  });

export const detailHandler = <T extends BaseRecord>(
  operationId: OperationId & `${string}Detail`,
  entity: RecordEntity<T>,
  view: Shape<T>,
) =>
  apiHandler(operationId, async ({ tenantId, params, baseUrl }) => {
    const item = await getRecord(entity, tenantId, (params as { id: string }).id);
    return json(200, view(item, baseUrl), { etag: etagOf(item.version) });
  });

export const insertHandler = <T extends BaseRecord, I>(
  operationId: OperationId & `${string}Insert`,
  resource: RecordResource<T, I>,
) =>
  apiHandler(operationId, {
    write: ({ body, write }) => insertRecord(resource, write, body as I),
    answer: (id) => ({ id }),
  });

export const updateHandler = <T extends BaseRecord, I>(
  operationId: OperationId & `${string}Update`,
  resource: RecordResource<T, I>,
) =>
  apiHandler(operationId, async ({ params, body, write }) =>
    json(200, { id: await updateRecord(resource, write, (params as { id: string }).id, body as I) }),
  );

export const deleteHandler = <T extends BaseRecord, I>(
  operationId: OperationId & `${string}Delete`,
  resource: RecordResource<T, I>,
) =>
  apiHandler(operationId, async ({ params, write }) =>
    json(200, { id: await deleteRecord(resource, write, (params as { id: string }).id) }),
  );
