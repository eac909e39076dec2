import type { ResourceSpec } from '../resources/resource-spec';
import { validate } from '../schemas/validate';
import { listRecords } from '../store/record-list';
import { deleteRecord, getRecord, insertRecord, updateRecord } from '../store/records';
import { apiHandler } from './api-handler';
import { parseListQuery } from './list-query';
import { etagOf, json } from './responses';

/**
 * The five operations every record resource has (customers, agents, lookups), built once from
 * its ResourceSpec. Each functions/<resource>-<operation>.ts is one call to one of these.
 */
export const listHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, query, baseUrl }) => {
    const page = await listRecords(spec, tenantId, parseListQuery(query, Object.keys(spec.search)), baseUrl);
    return json(200, { [spec.listKey]: page });
  });

export const detailHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, pathId, baseUrl }) => {
    const item = await getRecord(spec, tenantId, pathId);
    return json(200, spec.toApi(item, baseUrl), { etag: etagOf(item.version) });
  });

export const insertHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, body, remember }) => {
    const input = validate(spec.insertSchema, body);
    const id = await insertRecord(spec, tenantId, input, (newId) => remember(201, { id: newId }));
    return json(201, { id });
  });

export const updateHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, pathId, body, ifMatch }) => {
    // Validate before touching the store, so a bad body on an unknown id is still a 400.
    const patch = validate(spec.updateSchema, body);
    return json(200, { id: await updateRecord(spec, tenantId, pathId, patch, ifMatch) });
  });

export const deleteHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, pathId, ifMatch }) =>
    json(200, { id: await deleteRecord(spec, tenantId, pathId, ifMatch) }),
  );
