import type { ResourceSpec } from '../resources/resource-spec';
import { validate } from '../schemas/validate';
import { listRecords } from '../store/record-list';
import { deleteRecord, getRecord, insertRecord, updateRecord } from '../store/records';
import { apiHandler } from './api-handler';
import { parseListQuery } from './list-query';
import { json } from './responses';

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
  apiHandler(operationId, async ({ tenantId, pathId, baseUrl }) =>
    json(200, spec.toApi(await getRecord(spec, tenantId, pathId), baseUrl)),
  );

export const insertHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, body }) =>
    json(201, { id: await insertRecord(spec, tenantId, validate(spec.insertSchema, body)) }),
  );

export const updateHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, pathId, body }) => {
    // Validate before touching the store, so a bad body on an unknown id is still a 400.
    const patch = validate(spec.updateSchema, body);
    return json(200, { id: await updateRecord(spec, tenantId, pathId, patch) });
  });

export const deleteHandler = (operationId: string, spec: ResourceSpec) =>
  apiHandler(operationId, async ({ tenantId, pathId }) =>
    json(200, { id: await deleteRecord(spec, tenantId, pathId) }),
  );
