import { type ApiResponse, invoke, newTenant, type Tenant } from './api';

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

/** The usual starting point of a ticket test: a fresh tenant, its client and one customer. */
export const tenantWithCustomer = async () => {
  const tenant = await newTenant();
  const api = clientFor(tenant);
  const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  return { tenant, api, customer };
};
