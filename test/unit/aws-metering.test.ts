import { describe, expect, it } from 'vitest';
import { entityOf, unfilteredRead } from '../../bench/aws-metering';

describe('unfilteredRead', () => {
  it('drops projection, Select and filter, and the names and values only they used', () => {
    expect(
      unfilteredRead({
        TableName: 't',
        IndexName: 'list',
        KeyConditionExpression: '#p = :p AND #s >= :from',
        FilterExpression: '#f0 = :f0',
        ProjectionExpression: '#k0, #k1',
        Select: 'SPECIFIC_ATTRIBUTES',
        ExpressionAttributeNames: { '#p': 'listpk', '#s': 's8sk', '#f0': 'status', '#k0': 'pk', '#k1': 'sk' },
        ExpressionAttributeValues: { ':p': 'P', ':from': '0', ':f0': 'opened' },
        Limit: 26,
        ScanIndexForward: false,
        ExclusiveStartKey: { pk: 'a', sk: 'b' },
        ReturnConsumedCapacity: 'INDEXES',
      }),
    ).toEqual({
      TableName: 't',
      IndexName: 'list',
      KeyConditionExpression: '#p = :p AND #s >= :from',
      ExpressionAttributeNames: { '#p': 'listpk', '#s': 's8sk' },
      ExpressionAttributeValues: { ':p': 'P', ':from': '0' },
      Limit: 26,
      ScanIndexForward: false,
      ExclusiveStartKey: { pk: 'a', sk: 'b' },
    });
  });

  it('leaves out empty name and value maps (a Scan)', () => {
    expect(
      unfilteredRead({
        TableName: 't',
        FilterExpression: '#a = :a',
        ExpressionAttributeNames: { '#a': 'a' },
      }),
    ).toEqual({ TableName: 't' });
  });
});

describe('entityOf', () => {
  it('names an item by its entity attribute, else by its key', () => {
    expect(entityOf({ entity: 'TICKET' }, { pk: 'x' })).toBe('TICKET');
    expect(entityOf(undefined, { pk: 'T#t1#COUNTERS', sk: 'TICKET' })).toBe('COUNTER');
    expect(entityOf(undefined, { pk: 'RATE#c1', sk: '1' })).toBe('RATE_WINDOW');
  });
});
