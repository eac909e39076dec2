import { randomUUID } from 'node:crypto';
import { createClient } from '../shared/domain/new-client';
import type { CompatProfile } from '../shared/schemas/compat';
import { type ApiResponse, invoke } from './invoke';

/**
 * A tenant (API client) to call the API in process as: created in the configured store, its
 * apiToken exchanged for an access token through the real token route. The tests and the
 * benchmark start here; tests share one table and isolate themselves by tenant.
 */
export interface Tenant {
  clientId: string;
  apiToken: string;
  accessToken: string;
  /** What every bearer route needs. */
  headers: { authorization: string; clientid: string };
}

/** A fresh client (tenant), pinned to a compatibility profile (`standard` unless given), with an access token. */
export const newTenant = async (
  name = `tenant-${randomUUID().slice(0, 8)}`,
  options: { compat?: CompatProfile } = {},
): Promise<Tenant> => {
  const { clientId, apiToken } = await createClient(name, options.compat);
  const res = await invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${apiToken}` },
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  const accessToken: string = res.body.access_token;
  return {
    clientId,
    apiToken,
    accessToken,
    headers: { authorization: `Bearer ${accessToken}`, clientid: clientId },
  };
};

/** Calls the API as one tenant: JSON bodies, absolute URLs (nextQuery) accepted. */
export const clientFor = (tenant: Tenant) => {
  const send = (method: string, pathOrUrl: string, body?: unknown): Promise<ApiResponse> =>
    invoke(method, pathOrUrl.replace(/^https?:\/\/[^/]+/, ''), {
      headers: { ...tenant.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
  return {
    send,
    get: (pathOrUrl: string) => send('GET', pathOrUrl),
    post: (path: string, body: unknown) => send('POST', path, body),
    put: (path: string, body?: unknown) => send('PUT', path, body),
    del: (path: string) => send('DELETE', path),
    /** Inserts and returns the new id, failing loudly on anything but 201. */
    create: async (path: string, body: unknown): Promise<string> => {
      const res = await send('POST', path, body);
      if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.id;
    },
  };
};

export type TenantClient = ReturnType<typeof clientFor>;
