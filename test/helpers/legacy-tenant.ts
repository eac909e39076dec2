import { readFileSync } from 'node:fs';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/store/dynamo';
import { newId } from '../../shared/store/ids';
import { invoke } from './api';
import { clientFor, type TenantClient } from './tenant-client';

/**
 * The tenant of test/fixtures/legacy-v1-items.json (items as the code before issue 12 wrote them),
 * loaded under a fresh client id each time, so that tests may change it without meeting one
 * another (test/integration/legacy-data.test.ts loads it under its own id). Its apiToken is the
 * fixture's secret under the new id; record ids are the fixture's.
 */
export interface LegacyFixture {
  clientId: string;
  apiToken: string;
  ids: {
    customers: [string, string];
    agents: [string, string];
    types: string[];
    area: string;
    group: string;
    tickets: [string, string, string];
  };
  items: Record<string, unknown>[];
}

/** The fixture as stored in the repository, under its own client id. */
export const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/legacy-v1-items.json', import.meta.url), 'utf8'),
) as LegacyFixture;

/** The fixture's tenant under a new id (every key and attribute naming it), not yet stored. */
export const legacyFixture = (): LegacyFixture => {
  const clientId = newId();
  const secret = Buffer.from(fixture.apiToken, 'base64').toString('utf8').split(':')[1];
  return {
    ...fixture,
    clientId,
    apiToken: Buffer.from(`${clientId}:${secret}`, 'utf8').toString('base64'),
    items: JSON.parse(JSON.stringify(fixture.items).replaceAll(fixture.clientId, clientId)),
  };
};

/** Puts the items as they are, as DynamoDB would hold them after a restore of the old table. */
export const storeItems = async (items: Record<string, unknown>[], table = tableName()): Promise<void> => {
  for (let i = 0; i < items.length; i += 25) {
    await db().send(
      new BatchWriteCommand({
        RequestItems: { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
};

/** A legacy tenant in the test table, and an API client of it. */
export const legacyTenant = async (): Promise<LegacyFixture & { api: TenantClient }> => {
  const legacy = legacyFixture();
  await storeItems(legacy.items);
  const res = await invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${legacy.apiToken}` },
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status}`);
  const token: string = res.body.access_token;
  const api = clientFor({
    clientId: legacy.clientId,
    apiToken: legacy.apiToken,
    accessToken: token,
    headers: { authorization: `Bearer ${token}`, clientid: legacy.clientId },
  });
  return { ...legacy, api };
};
