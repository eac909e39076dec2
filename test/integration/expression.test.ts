import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/store/dynamo';
import { andCondition, andUpdate, queryOf, updateOf } from '../../shared/store/expression';
import { newId } from '../../shared/store/ids';

/** The builder's expressions as DynamoDB Local reads them: reserved words, map members, refusals. */
describe('expressions on DynamoDB', () => {
  const key = () => ({ pk: `EXPR#${newId()}`, sk: '#' });

  it('updates reserved and nested attributes under a condition, and refuses when it does not hold', async () => {
    const Key = key();
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...Key, labels: { en: 'a' }, version: 1 } }),
    );
    const update = andUpdate(
      updateOf(
        { set: { status: 'closed', 'labels.en': 'b', until: 5 }, add: { version: 1 }, remove: ['gone'] },
        { eq: ['version', 1] },
      ),
      { set: { done: true } },
      'x',
    );
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key, ...andCondition(update, { exists: 'pk' }, 'f') }),
    );
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key }));
    expect(Item).toEqual({ ...Key, status: 'closed', labels: { en: 'b' }, until: 5, version: 2, done: true });
    await expect(
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key,
          ...updateOf({ set: { status: 'x' } }, { eq: ['version', 1] }),
        }),
      ),
    ).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
  });

  it('queries a partition by a sort range, filtered and projected', async () => {
    const pk = `EXPR#${newId()}`;
    for (const [sk, type] of [
      ['a', 'x'],
      ['b', 'y'],
      ['c', 'x'],
      ['d', 'x'],
    ] as const)
      await db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk, type, other: 1 } }));
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...queryOf(
          { partition: ['pk', pk], sort: { between: ['sk', 'a', 'c'] } },
          { filter: { eq: ['type', 'x'] }, project: ['sk', 'type'] },
        ),
      }),
    );
    expect(out.Items).toEqual([
      { sk: 'a', type: 'x' },
      { sk: 'c', type: 'x' },
    ]);
  });
});
