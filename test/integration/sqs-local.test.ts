import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  type Message,
  QueueDoesNotExist,
  ReceiptHandleIsInvalid,
  ReceiveMessageCommand,
  type ReceiveMessageCommandInput,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SqsLocal, startSqsLocal } from '../../local/sqs-local';
import { connects, reachableWhenExposed } from '../helpers/reachability';

/**
 * The local SQS FIFO stand-in, driven by the real SDK client over HTTP. Each test has its own
 * queue(s); timings use real timers and visibility timeouts of 0–1 s.
 */
let sqs: SqsLocal;
let client: SQSClient;

beforeAll(async () => {
  sqs = await startSqsLocal({
    queues: [
      { name: 'batch.fifo', visibilityTimeoutSeconds: 30 },
      { name: 'order.fifo', visibilityTimeoutSeconds: 30 },
      { name: 'dedup.fifo', visibilityTimeoutSeconds: 30 },
      { name: 'visibility.fifo', visibilityTimeoutSeconds: 1 },
      { name: 'handles.fifo', visibilityTimeoutSeconds: 30 },
      { name: 'work.fifo', visibilityTimeoutSeconds: 30, maxReceiveCount: 2, deadLetterQueue: 'dead.fifo' },
      { name: 'dead.fifo', visibilityTimeoutSeconds: 30 },
      { name: 'poll.fifo', visibilityTimeoutSeconds: 1 },
      { name: 'errors.fifo', visibilityTimeoutSeconds: 30 },
    ],
  });
  client = new SQSClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    endpoint: sqs.endpoint,
    maxAttempts: 1,
  });
});

afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
});

const send = (queue: string, body: string, group: string, dedup = body) =>
  client.send(
    new SendMessageCommand({
      QueueUrl: sqs.queueUrl(queue),
      MessageBody: body,
      MessageGroupId: group,
      MessageDeduplicationId: dedup,
    }),
  );

const receive = async (queue: string, input: Partial<ReceiveMessageCommandInput> = {}): Promise<Message[]> =>
  (
    await client.send(
      new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl(queue), MaxNumberOfMessages: 10, ...input }),
    )
  ).Messages ?? [];

const bodies = (messages: Message[]) => messages.map((m) => m.Body);

const remove = (queue: string, message: Message | undefined) =>
  client.send(
    new DeleteMessageCommand({ QueueUrl: sqs.queueUrl(queue), ReceiptHandle: message?.ReceiptHandle }),
  );

const changeVisibility = (queue: string, message: Message | undefined, seconds: number) =>
  client.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: sqs.queueUrl(queue),
      ReceiptHandle: message?.ReceiptHandle,
      VisibilityTimeout: seconds,
    }),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('local SQS FIFO', () => {
  it('listens on 127.0.0.1 only (it checks no signature): unreachable on the machine’s other addresses', async () => {
    const url = new URL(sqs.endpoint);
    expect(url.hostname).toBe('127.0.0.1');
    for (const host of await reachableWhenExposed())
      expect(await connects(host, Number(url.port)), `reachable on ${host}`).toBe(false);
  });

  it('sends a batch (per-entry results) and receives it with its system attributes', async () => {
    const before = Date.now();
    const sent = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('batch.fifo'),
        Entries: [
          { Id: 'one', MessageBody: 'b1', MessageGroupId: 'g1', MessageDeduplicationId: 'd1' },
          { Id: 'two', MessageBody: 'b2', MessageGroupId: 'g2', MessageDeduplicationId: 'd2' },
          { Id: 'bad', MessageBody: 'b3', MessageDeduplicationId: 'd3' }, // no group
        ],
      }),
    );
    expect(sent.Successful?.map((e) => e.Id)).toEqual(['one', 'two']);
    expect(sent.Failed).toEqual([
      expect.objectContaining({ Id: 'bad', Code: 'MissingParameter', SenderFault: true }),
    ]);
    expect(sqs.depth('batch.fifo')).toEqual({ visible: 2, inFlight: 0 });

    const got = await receive('batch.fifo', { MessageSystemAttributeNames: ['All'] });
    expect(bodies(got)).toEqual(['b1', 'b2']);
    const [first] = got;
    const sentFirst = sent.Successful?.[0];
    expect(first?.MessageId).toBe(sentFirst?.MessageId);
    expect(first?.Attributes).toMatchObject({
      ApproximateReceiveCount: '1',
      MessageGroupId: 'g1',
      MessageDeduplicationId: 'd1',
      SequenceNumber: sentFirst?.SequenceNumber,
    });
    expect(Number(first?.Attributes?.SentTimestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(first?.Attributes?.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(
      Number(first?.Attributes?.SentTimestamp),
    );
    // Asked for one attribute, only that one.
    await changeVisibility('batch.fifo', got[1], 0);
    const again = await receive('batch.fifo', { MessageSystemAttributeNames: ['ApproximateReceiveCount'] });
    expect(again[0]?.Attributes).toEqual({ ApproximateReceiveCount: '2' });

    const attributes = await client.send(
      new GetQueueAttributesCommand({
        QueueUrl: sqs.queueUrl('batch.fifo'),
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(attributes.Attributes).toEqual({
      ApproximateNumberOfMessages: '0',
      ApproximateNumberOfMessagesNotVisible: '2',
    });
    const deleted = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: sqs.queueUrl('batch.fifo'),
        Entries: [
          { Id: 'a', ReceiptHandle: first?.ReceiptHandle },
          { Id: 'b', ReceiptHandle: again[0]?.ReceiptHandle },
          { Id: 'c', ReceiptHandle: 'not-a-handle' },
        ],
      }),
    );
    expect(deleted.Successful?.map((e) => e.Id)).toEqual(['a', 'b']);
    expect(deleted.Failed).toEqual([expect.objectContaining({ Id: 'c', Code: 'ReceiptHandleIsInvalid' })]);
    expect(sqs.depth('batch.fifo')).toEqual({ visible: 0, inFlight: 0 });
  });

  it('keeps each group in order and gives nothing more of a group while one of its messages is in flight', async () => {
    for (const [body, group] of [
      ['a1', 'A'],
      ['b1', 'B'],
      ['a2', 'A'],
      ['a3', 'A'],
      ['b2', 'B'],
    ] as const) {
      await send('order.fifo', body, group);
    }
    const firstA = await receive('order.fifo', { MaxNumberOfMessages: 1 });
    expect(bodies(firstA)).toEqual(['a1']);
    // A is blocked by a1: only B, in order.
    const bs = await receive('order.fifo');
    expect(bodies(bs)).toEqual(['b1', 'b2']);
    expect(await receive('order.fifo')).toEqual([]);
    await remove('order.fifo', firstA[0]);
    expect(bodies(await receive('order.fifo'))).toEqual(['a2', 'a3']);

    // Several groups in one receive: each group's messages together, in order.
    for (const m of bs) await changeVisibility('order.fifo', m, 0);
    await send('order.fifo', 'c1', 'C');
    await send('order.fifo', 'b3', 'B');
    expect(bodies(await receive('order.fifo'))).toEqual(['b1', 'b2', 'b3', 'c1']);
  });

  it('accepts a repeated deduplication id without enqueueing it again', async () => {
    const first = await send('dedup.fifo', 'hello', 'g', 'same');
    const repeat = await send('dedup.fifo', 'hello again', 'g', 'same');
    expect(repeat.MessageId).toBe(first.MessageId);
    expect(repeat.SequenceNumber).toBe(first.SequenceNumber);
    await send('dedup.fifo', 'other', 'g', 'other');
    expect(sqs.depth('dedup.fifo')).toEqual({ visible: 2, inFlight: 0 });
    const got = await receive('dedup.fifo');
    expect(bodies(got)).toEqual(['hello', 'other']);
    // Still deduplicated after the original was deleted (the window is 5 minutes).
    await remove('dedup.fifo', got[0]);
    await send('dedup.fifo', 'hello', 'g', 'same');
    expect(sqs.messages('dedup.fifo').map((m) => m.body)).toEqual(['other']);
  });

  it('makes a received message visible again after its timeout, or as ChangeMessageVisibility says', async () => {
    await send('visibility.fifo', 'expires', 'x');
    await send('visibility.fifo', 'extended', 'y');
    await send('visibility.fifo', 'released', 'z');
    const got = await receive('visibility.fifo');
    expect(bodies(got)).toEqual(['expires', 'extended', 'released']);
    expect(sqs.depth('visibility.fifo')).toEqual({ visible: 0, inFlight: 3 });

    await changeVisibility('visibility.fifo', got[2], 0);
    expect(bodies(await receive('visibility.fifo', { VisibilityTimeout: 5 }))).toEqual(['released']);
    await changeVisibility('visibility.fifo', got[1], 10);
    expect(await receive('visibility.fifo')).toEqual([]);

    await sleep(1100); // the queue's 1 s
    const again = await receive('visibility.fifo', {
      MessageSystemAttributeNames: ['ApproximateReceiveCount'],
    });
    expect(bodies(again)).toEqual(['expires']);
    expect(again[0]?.Attributes?.ApproximateReceiveCount).toBe('2');
    expect(sqs.depth('visibility.fifo')).toEqual({ visible: 0, inFlight: 3 });
  });

  it('invalidates a receipt handle once the message is received again', async () => {
    await send('handles.fifo', 'm', 'g');
    const [old] = await receive('handles.fifo');
    await changeVisibility('handles.fifo', old, 0);
    const [current] = await receive('handles.fifo');
    expect(current?.ReceiptHandle).not.toBe(old?.ReceiptHandle);

    const expired = expect.objectContaining({
      name: 'InvalidParameterValue',
      message: expect.stringMatching(/expired/),
    });
    await expect(remove('handles.fifo', old)).rejects.toEqual(expired);
    await expect(changeVisibility('handles.fifo', old, 5)).rejects.toEqual(expired);
    expect(sqs.depth('handles.fifo')).toEqual({ visible: 0, inFlight: 1 });

    await remove('handles.fifo', current);
    await remove('handles.fifo', current); // deleting again with the same handle succeeds, as on SQS
    expect(sqs.depth('handles.fifo')).toEqual({ visible: 0, inFlight: 0 });
    await expect(changeVisibility('handles.fifo', current, 5)).rejects.toEqual(expired);
  });

  it('moves a message received maxReceiveCount times to the dead-letter queue when it is visible again', async () => {
    await send('work.fifo', 'poison', 'p');
    await send('work.fifo', 'next', 'p');
    for (let i = 1; i <= 2; i += 1) {
      const got = await receive('work.fifo', { MaxNumberOfMessages: 1, VisibilityTimeout: 0 });
      expect(bodies(got)).toEqual(['poison']);
    }
    // Visible again after its 2nd receive: in the dead-letter queue, and its group moves on.
    expect(sqs.messages('dead.fifo')).toEqual([
      expect.objectContaining({ body: 'poison', messageGroupId: 'p', receiveCount: 0, inFlight: false }),
    ]);
    const got = await receive('work.fifo', { MaxNumberOfMessages: 1 });
    expect(bodies(got)).toEqual(['next']);
    const [dead] = await receive('dead.fifo', { MessageSystemAttributeNames: ['All'] });
    expect(dead?.Body).toBe('poison');
    expect(dead?.Attributes).toMatchObject({
      MessageGroupId: 'p',
      ApproximateReceiveCount: '1',
      DeadLetterQueueSourceArn: 'arn:aws:sqs:us-east-1:000000000000:work.fifo',
    });
    expect(sqs.depth('work.fifo')).toEqual({ visible: 0, inFlight: 1 });
  });

  it('answers a long poll as soon as a message arrives or becomes visible again', async () => {
    const started = Date.now();
    const empty = await receive('poll.fifo', { WaitTimeSeconds: 1 });
    expect(empty).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // it did wait

    const polling = receive('poll.fifo', { WaitTimeSeconds: 10 });
    await sleep(100);
    const sentAt = Date.now();
    await send('poll.fifo', 'wake', 'g');
    const [woken] = await polling;
    expect(woken?.Body).toBe('wake');
    expect(Date.now() - sentAt).toBeLessThan(500);

    // In flight for the queue's 1 s: the poll ends when it is visible again, not after 10 s.
    const repoll = Date.now();
    const [visibleAgain] = await receive('poll.fifo', { WaitTimeSeconds: 10 });
    expect(visibleAgain?.MessageId).toBe(woken?.MessageId);
    expect(Date.now() - repoll).toBeLessThan(2000);
    await remove('poll.fifo', visibleAgain);

    // A poll whose client went away takes nothing into flight.
    const gone = new AbortController();
    const abandoned = client
      .send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('poll.fifo'), WaitTimeSeconds: 10 }), {
        abortSignal: gone.signal,
      })
      .catch((error: Error) => error.name);
    await sleep(100);
    gone.abort();
    expect(await abandoned).toBe('AbortError');
    await sleep(50);
    await send('poll.fifo', 'after', 'g');
    expect(sqs.depth('poll.fifo')).toEqual({ visible: 1, inFlight: 0 });
  });

  it('reports errors as the SDK’s named exceptions', async () => {
    const noQueue = client.send(
      new ReceiveMessageCommand({ QueueUrl: `${sqs.endpoint}/000000000000/missing.fifo` }),
    );
    await expect(noQueue).rejects.toBeInstanceOf(QueueDoesNotExist);
    // AWS's query-protocol code too, as SQS sends it (x-amzn-query-error).
    await expect(noQueue).rejects.toMatchObject({ Code: 'AWS.SimpleQueueService.NonExistentQueue' });
    expect(await client.send(new GetQueueUrlCommand({ QueueName: 'errors.fifo' }))).toMatchObject({
      QueueUrl: sqs.queueUrl('errors.fifo'),
    });
    await expect(client.send(new GetQueueUrlCommand({ QueueName: 'missing.fifo' }))).rejects.toBeInstanceOf(
      QueueDoesNotExist,
    );
    const invalidHandle = client.send(
      new DeleteMessageCommand({ QueueUrl: sqs.queueUrl('errors.fifo'), ReceiptHandle: 'garbage' }),
    );
    await expect(invalidHandle).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
    await expect(invalidHandle).rejects.toMatchObject({
      name: 'ReceiptHandleIsInvalid',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(
      client.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('errors.fifo'), MessageBody: 'x' })),
    ).rejects.toMatchObject({ name: 'MissingParameter' });
    await expect(receive('errors.fifo', { MaxNumberOfMessages: 11 })).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
  });

  it('stops at once, ending pending long polls and clearing their timers', async () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout');
    const other = await startSqsLocal({ queues: [{ name: 'q.fifo', visibilityTimeoutSeconds: 30 }] });
    const otherClient = new SQSClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      endpoint: other.endpoint,
      maxAttempts: 1,
    });
    try {
      const polling = otherClient
        .send(new ReceiveMessageCommand({ QueueUrl: other.queueUrl('q.fifo'), WaitTimeSeconds: 20 }))
        .catch(() => 'ended');
      await sleep(100);
      const started = Date.now();
      await other.stop();
      await polling;
      expect(Date.now() - started).toBeLessThan(1000);
      // The poll's timer (its 20 s wait) was cleared, not left to fire after the stop.
      const pollTimers = setTimer.mock.results
        .filter((_, i) => Number(setTimer.mock.calls[i]?.[1]) >= 15_000)
        .map((r) => r.value);
      expect(pollTimers).toHaveLength(1);
      expect(clearTimer.mock.calls.map(([timer]) => timer)).toContain(pollTimers[0]);
    } finally {
      otherClient.destroy();
      vi.restoreAllMocks();
    }
  });
});
