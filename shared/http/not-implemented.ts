import { apiHandler } from './api-handler';
import { HttpError } from './errors';

/** Routes whose operation is not built yet answer 501 problem+json (after authentication). */
export const notImplementedHandler = (operationId: string) =>
  apiHandler(operationId, async () => {
    throw new HttpError(501, 'not-implemented', 'Not Implemented', `${operationId} is not available yet.`);
  });
