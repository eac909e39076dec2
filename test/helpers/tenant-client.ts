import { clientFor, newTenant } from '../../local/tenant';

export { clientFor, type TenantClient } from '../../local/tenant';

/** The usual starting point of a ticket test: a fresh tenant, its client and one customer. */
export const tenantWithCustomer = async () => {
  const tenant = await newTenant();
  const api = clientFor(tenant);
  const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  return { tenant, api, customer };
};

/** A fresh tenant with one customer, one agent and one ticket: ids for routes that take one. */
export const tenantWithRecords = async () => {
  const { tenant, api, customer } = await tenantWithCustomer();
  const agent = await api.create('/agent/insert', { name: 'Grace', email: 'grace@example.com' });
  const ticket = await api.create('/ticket/insert', {
    subject: 's',
    description: 'd',
    openedBy: { id: customer },
  });
  return { tenant, api, ids: { customer, agent, ticket } as Record<string, string> };
};
