import type { OperationId } from '../routes';
import type { BaseRecord, RecordEntity } from '../store/entities/records';
import { getRecord } from '../store/record-reads';
import { apiHandler } from './api-handler';
import { etagOf, json } from './responses';
import type { RecordShape } from './views/records';

/** `GET /<resource>/detail/{id}` of every record resource (customers, agents, lookups, webhooks), built once. */
export const detailHandler = <T extends BaseRecord>(
  operationId: OperationId & `${string}Detail`,
  entity: RecordEntity<T>,
  view: RecordShape<T>,
) =>
  apiHandler(operationId, async ({ tenantId, params, baseUrl }) => {
    const item = await getRecord(entity, tenantId, (params as { id: string }).id);
    return json(200, view(item, baseUrl), { etag: etagOf(item.version) });
  });
