import { clientFor, newTenant } from '../../local/tenant';

export { clientFor, type TenantClient } from '../../local/tenant';

/** The usual starting point of a ticket test: a fresh tenant, its client and one customer. */
export const tenantWithCustomer = async () => {
  const tenant = await newTenant();
  const api = clientFor(tenant);
  const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  return { tenant, api, customer };
};
