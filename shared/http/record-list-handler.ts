import type { OperationId } from '../routes';
import type { BaseRecord, RecordEntity } from '../store/entities/records';
import { listRecords } from '../store/record-pages';
import { apiHandler } from './api-handler';
import { listRequest } from './list-query';
import { pageResponse } from './views/page';
import type { RecordShape } from './views/records';

/**
 * `GET /<resource>/list` of every record resource (customers, agents, lookups, webhooks), built
 * once: the store's page of records in its view. Its own file, so that a function of another
 * route bundles none of the page, cursor and list code (test/infra/bundles.test.ts).
 */
export const listHandler = <T extends BaseRecord>(
  operationId: OperationId & `${string}List`,
  entity: RecordEntity<T>,
  listKey: string,
  view: RecordShape<T>,
) =>
  apiHandler(operationId, async ({ tenantId, query, rawQuery, baseUrl, routeUrl, compat }) => {
    const { query: list, filter } = listRequest(query, rawQuery);
    const page = await listRecords(entity, tenantId, list);
    return compat.page(listKey, await pageResponse(page, (r) => view(r, baseUrl), routeUrl, filter));
  });
