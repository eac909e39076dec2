import { expect, it, vi } from 'vitest';
import { invoke } from '../helpers/api';
import { tenantWithCustomer } from '../helpers/tenant-client';

// The access lines are INFO: the level is read once, as the logger is created.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
});

it("writes one access line for a bulk call, counting its operations' statuses", async () => {
  const { tenant, customer } = await tenantWithCustomer();
  const lines: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    const res = await invoke('POST', '/ticket/bulk', {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: {
        operations: [
          { op: 'insert', body: { subject: 'a', description: 'd', openedBy: { id: customer } } },
          { op: 'insert', body: { subject: '' } },
          { op: 'delete', id: 'ffffffffffffffffffffffff' },
        ],
      },
    });
    expect(res.status).toBe(200);
  } finally {
    process.stdout.write = write;
  }
  const access = lines
    .map((l) => JSON.parse(l))
    .filter((l) => l.message === 'request' && l.routeKey === 'POST /ticket/bulk');
  expect(access).toEqual([expect.objectContaining({ status: 200, operations: { 201: 1, 400: 1, 404: 1 } })]);
});
