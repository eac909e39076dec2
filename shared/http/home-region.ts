import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import type { Route } from '../routes';
import { useHome, useRegion } from '../store/store-region';
import { clientOf } from './request-state';

/**
 * Tenant-homed writes (docs/regions.md): once the client is known, a route that writes sends
 * every store call of the request (the reads its write is planned from, the idempotency record,
 * the transaction) to the tenant's home region, so every condition and transaction of a tenant
 * is evaluated on one replica. Reads stay on the local replica, unless the request asks for its
 * own writes (`Helpdesk-Read-Home: true`): then they are read at home too. A tenant's
 * attachments live in its home region's bucket (blobs/s3.ts), from any route. Registered after
 * authentication; REGION_HOMING=false (the simulation's negative control only) keeps everything
 * local.
 */
export const READ_HOME_HEADER = 'helpdesk-read-home';

export const homeRegion = (route: Route): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    const client = clientOf(event);
    const home = client?.homeRegion;
    if (!client || !home || !config().REGION_HOMING) return;
    useHome(home, client.tenantId);
    if (route.access === 'write' || event.headers[READ_HOME_HEADER] === 'true') useRegion(home);
  },
});
