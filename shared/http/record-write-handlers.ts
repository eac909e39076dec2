import { deleteRecord, insertRecord, type RecordResource, updateRecord } from '../domain/records';
import type { OperationId } from '../routes';
import type { BaseRecord } from '../store/entities/records';
import { apiHandler } from './api-handler';

/**
 * The writes every record resource has (customers, agents, lookups, webhooks), built once: each
 * goes to the domain's record service. Each functions/<resource>-<insert|update|delete>.ts is one
 * call to one of these.
 */
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
  apiHandler(operationId, {
    write: ({ params, body, write }) =>
      updateRecord(resource, write, (params as { id: string }).id, body as I),
    answer: (id) => ({ id }),
  });

export const deleteHandler = <T extends BaseRecord, I>(
  operationId: OperationId & `${string}Delete`,
  resource: RecordResource<T, I>,
) =>
  apiHandler(operationId, {
    write: ({ params, write }) => deleteRecord(resource, write, (params as { id: string }).id),
    answer: (id) => ({ id }),
  });
