import { type ApiResponse, invoke, type Tenant } from './api';

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
    put: (path: string, body: unknown) => send('PUT', path, body),
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
