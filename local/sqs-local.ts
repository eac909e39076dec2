import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A local stand-in for Amazon SQS FIFO queues, in this process, for `npm start` and the tests:
 * the real `@aws-sdk/client-sqs` talks to it over HTTP (the AWS JSON 1.0 protocol: `POST /`,
 * `x-amz-target: AmazonSQS.<Operation>`), so the handlers run unchanged against it.
 *
 * Implemented, as SQS FIFO queues behave: SendMessage, SendMessageBatch, ReceiveMessage (long
 * polling, visibility override, system attributes), DeleteMessage, DeleteMessageBatch,
 * ChangeMessageVisibility, GetQueueAttributes (message counts and configuration), GetQueueUrl.
 * Message groups deliver in order, one batch in flight per group; a deduplication id seen in the
 * last 5 minutes is accepted but not enqueued again; each receive issues a new receipt handle and
 * the older ones expire; a message received maxReceiveCount times moves to the dead-letter queue
 * when it becomes visible again. Errors reach the SDK as its modelled exceptions
 * (QueueDoesNotExist, ReceiptHandleIsInvalid…) or, like AWS, as InvalidParameterValue /
 * MissingParameter.
 *
 * Not implemented: standard (non-FIFO) queues; queues made over HTTP (CreateQueue, DeleteQueue,
 * SetQueueAttributes: queues come from the starter's options); content-based deduplication;
 * delays; message attributes (refused, not dropped); retention (messages stay until deleted);
 * ReceiveRequestAttemptId; the 12-hour cap on cumulative visibility; PurgeQueue, the
 * *Batch visibility call, tags, permissions, message-move tasks; signatures (none are checked).
 * Like the local S3 server it therefore listens on 127.0.0.1 only. State is in memory only, and
 * no message body is ever logged.
 */
export interface SqsLocalQueue {
  /** The queue's name; FIFO queue names end in `.fifo`. */
  name: string;
  visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to `deadLetterQueue` (both or neither). */
  maxReceiveCount?: number;
  /** The name of another queue of the same server. */
  deadLetterQueue?: string;
}

export interface SqsLocalOptions {
  queues: SqsLocalQueue[];
}

/** One message as the in-process helpers show it (without receiving it). */
export interface SqsLocalMessage {
  messageId: string;
  body: string;
  messageGroupId: string;
  messageDeduplicationId: string;
  receiveCount: number;
  inFlight: boolean;
}

export interface SqsLocal {
  readonly endpoint: string;
  /** `${endpoint}/000000000000/${name}`; throws for a queue the server does not have. */
  queueUrl(name: string): string;
  /** Messages available (visible) and in flight (received, neither deleted nor visible again). */
  depth(name: string): { visible: number; inFlight: number };
  /** The queue's messages in order, e.g. what reached a dead-letter queue. */
  messages(name: string): SqsLocalMessage[];
  stop(): Promise<void>;
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const DEDUP_WINDOW_MS = 5 * 60 * 1000;
const MAX_MESSAGE_BYTES = 1024 * 1024;
const MAX_REQUEST_BYTES = 8 * MAX_MESSAGE_BYTES;
const MAX_VISIBILITY_SECONDS = 43_200;
const MAX_WAIT_SECONDS = 20;
/** The characters SQS accepts in a message body (the XML 1.0 character set). */
const INVALID_BODY_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
/** Group and deduplication ids: 1–128 printable ASCII characters. */
const FIFO_ID = /^[\x21-\x7E]{1,128}$/;
const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;
const RECEIVE_ATTRIBUTES = [
  'ApproximateReceiveCount',
  'ApproximateFirstReceiveTimestamp',
  'SentTimestamp',
  'MessageGroupId',
  'MessageDeduplicationId',
  'SequenceNumber',
  'DeadLetterQueueSourceArn',
] as const;

/** An SQS error; `code` is the exception name the SDK gives it (see QUERY_ERRORS for the wire form). */
class SqsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** [awsQueryError code, HTTP status], as the SDK's error shapes declare them; others are [code, 400]. */
const QUERY_ERRORS: Record<string, [string, number]> = {
  QueueDoesNotExist: ['AWS.SimpleQueueService.NonExistentQueue', 400],
  ReceiptHandleIsInvalid: ['ReceiptHandleIsInvalid', 404],
  EmptyBatchRequest: ['AWS.SimpleQueueService.EmptyBatchRequest', 400],
  TooManyEntriesInBatchRequest: ['AWS.SimpleQueueService.TooManyEntriesInBatchRequest', 400],
  BatchEntryIdsNotDistinct: ['AWS.SimpleQueueService.BatchEntryIdsNotDistinct', 400],
  BatchRequestTooLong: ['AWS.SimpleQueueService.BatchRequestTooLong', 400],
  InvalidBatchEntryId: ['AWS.SimpleQueueService.InvalidBatchEntryId', 400],
  UnsupportedOperation: ['AWS.SimpleQueueService.UnsupportedOperation', 400],
};

interface Message {
  id: string;
  body: string;
  groupId: string;
  dedupId: string;
  sequenceNumber: string;
  sentAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  /** Epoch ms from which it is visible; in flight while in the future. */
  visibleAt: number;
  deadLetterSourceArn?: string;
}

interface Queue {
  name: string;
  url: string;
  arn: string;
  visibilityMs: number;
  maxReceiveCount?: number;
  deadLetter?: Queue;
  /** In send order, which is also sequence order. */
  messages: Map<string, Message>;
  dedup: Map<string, { messageId: string; sequenceNumber: string; at: number }>;
  /** Receipt handles used by a successful DeleteMessage (deleting again succeeds), with when. */
  deleted: Map<string, number>;
  lastSequence: bigint;
  /** Long polls waiting for this queue to change. */
  waiters: Set<() => void>;
}

type Input = Record<string, unknown>;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

const invalid = (name: string, value: unknown, reason: string) =>
  new SqsError(
    'InvalidParameterValue',
    `Value ${String(value)} for parameter ${name} is invalid. Reason: ${reason}`,
  );

const missing = (name: string) =>
  new SqsError('MissingParameter', `The request must contain the parameter ${name}.`);

const integer = (input: Input, name: string, min: number, max: number, fallback: number): number => {
  const value = input[name];
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw invalid(name, value, `Must be between ${min} and ${max}, if provided.`);
  }
  return value as number;
};

const text = (input: Input, name: string): string => {
  const value = input[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  if (typeof value !== 'string') throw invalid(name, value, 'Must be a string.');
  return value;
};

const list = (input: Input, name: string): unknown[] => {
  const value = input[name] ?? [];
  if (!Array.isArray(value)) throw invalid(name, value, 'Must be a list.');
  return value;
};

const record = (value: unknown): Input =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Input) : {};

const receiptHandle = (queue: Queue, message: Message) =>
  Buffer.from(JSON.stringify([queue.name, message.id, message.receiveCount])).toString('base64url');

/** The queue, message id and receive count a receipt handle was issued for, if it is one of ours. */
const parseHandle = (handle: string): [string, string, number] | undefined => {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(handle, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3 && Number.isInteger(parsed[2])) {
      return parsed as [string, string, number];
    }
  } catch {}
  return undefined;
};

export const startSqsLocal = async ({ queues: definitions }: SqsLocalOptions): Promise<SqsLocal> => {
  const queues = new Map<string, Queue>();
  let stopped = false;

  const notify = (queue: Queue) => {
    for (const wake of [...queue.waiters]) wake();
  };

  /** Resolves when the queue changes, after `ms`, on abort (the client went) or on stop, whichever is first. */
  const changeOf = (queue: Queue, ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        queue.waiters.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(1, ms));
      queue.waiters.add(wake);
      signal.addEventListener('abort', wake);
    });

  const queueNamed = (name: string): Queue => {
    const queue = queues.get(name);
    if (!queue) throw new Error(`sqs-local: no queue named ${name}`);
    return queue;
  };

  /** The queue a request's QueueUrl names (`…/000000000000/<name>`, whatever its host). */
  const queueOf = (input: Input): Queue => {
    const url = text(input, 'QueueUrl');
    let path: string[] = [];
    try {
      path = new URL(url).pathname.split('/');
    } catch {}
    const queue = path.length === 3 && path[1] === ACCOUNT ? queues.get(path[2] ?? '') : undefined;
    if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
    return queue;
  };

  /**
   * Forgets deduplication ids and deleted receipt handles older than the deduplication window
   * (both maps are in insertion order, which is time order).
   */
  const prune = (queue: Queue, now: number) => {
    for (const [id, { at }] of queue.dedup) {
      if (now - at < DEDUP_WINDOW_MS) break;
      queue.dedup.delete(id);
    }
    for (const [handle, at] of queue.deleted) {
      if (now - at < DEDUP_WINDOW_MS) break;
      queue.deleted.delete(handle);
    }
  };

  const nextSequence = (queue: Queue) => {
    queue.lastSequence += 1n;
    return queue.lastSequence.toString().padStart(20, '0');
  };

  /**
   * Moves the visible messages that were received maxReceiveCount times to their dead-letter
   * queue. SQS does it when a receive meets them; here every receive and look at any queue does,
   * so the dead-letter queue shows them as soon as they are due.
   */
  const redrive = (now: number) => {
    for (const queue of queues.values()) {
      const { deadLetter, maxReceiveCount } = queue;
      if (deadLetter && maxReceiveCount !== undefined) redriveFrom(queue, deadLetter, maxReceiveCount, now);
    }
  };

  const redriveFrom = (queue: Queue, deadLetter: Queue, maxReceiveCount: number, now: number) => {
    let moved = false;
    for (const message of queue.messages.values()) {
      if (message.visibleAt > now || message.receiveCount < maxReceiveCount) continue;
      queue.messages.delete(message.id);
      // A FIFO dead-letter queue enqueues it afresh: new sequence number and enqueue time, not yet received.
      deadLetter.messages.set(message.id, {
        ...message,
        sequenceNumber: nextSequence(deadLetter),
        sentAt: now,
        receiveCount: 0,
        firstReceivedAt: undefined,
        visibleAt: 0,
        deadLetterSourceArn: queue.arn,
      });
      moved = true;
    }
    if (moved) {
      notify(queue);
      notify(deadLetter);
    }
  };

  const send = (queue: Queue, entry: Input) => {
    const body = text(entry, 'MessageBody');
    if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES) {
      throw invalid(
        'MessageBody',
        '(message body)',
        `Message must be shorter than ${MAX_MESSAGE_BYTES} bytes.`,
      );
    }
    if (INVALID_BODY_CHARACTER.test(body)) {
      throw new SqsError('InvalidMessageContents', 'Invalid characters found in the message body.');
    }
    if (entry.DelaySeconds) {
      throw invalid(
        'DelaySeconds',
        entry.DelaySeconds,
        'The request include parameter that is not valid for this queue type.',
      );
    }
    if (entry.MessageAttributes || entry.MessageSystemAttributes) {
      throw new SqsError('UnsupportedOperation', 'Message attributes are not implemented by the local SQS.');
    }
    const groupId = entry.MessageGroupId;
    if (groupId === undefined) throw missing('MessageGroupId');
    if (typeof groupId !== 'string' || !FIFO_ID.test(groupId)) {
      throw invalid('MessageGroupId', groupId, 'Must be 1 to 128 printable ASCII characters.');
    }
    const dedupId = entry.MessageDeduplicationId;
    if (dedupId === undefined) {
      throw invalid(
        'MessageDeduplicationId',
        dedupId,
        'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly',
      );
    }
    if (typeof dedupId !== 'string' || !FIFO_ID.test(dedupId)) {
      throw invalid('MessageDeduplicationId', dedupId, 'Must be 1 to 128 printable ASCII characters.');
    }
    const now = Date.now();
    prune(queue, now);
    const seen = queue.dedup.get(dedupId);
    if (seen) {
      return { MessageId: seen.messageId, MD5OfMessageBody: md5(body), SequenceNumber: seen.sequenceNumber };
    }
    const message: Message = {
      id: randomUUID(),
      body,
      groupId,
      dedupId,
      sequenceNumber: nextSequence(queue),
      sentAt: now,
      receiveCount: 0,
      visibleAt: 0,
    };
    queue.messages.set(message.id, message);
    queue.dedup.set(dedupId, { messageId: message.id, sequenceNumber: message.sequenceNumber, at: now });
    notify(queue);
    return { MessageId: message.id, MD5OfMessageBody: md5(body), SequenceNumber: message.sequenceNumber };
  };

  /**
   * Takes up to `max` messages into flight: whole runs of a group, in order, oldest group first;
   * a group with a message in flight gives none.
   */
  const take = (queue: Queue, max: number, visibilityMs: number, now: number): Message[] => {
    redrive(now);
    const blocked = new Set<string>();
    for (const message of queue.messages.values()) if (message.visibleAt > now) blocked.add(message.groupId);
    const groups = new Map<string, Message[]>();
    for (const message of queue.messages.values()) {
      if (blocked.has(message.groupId)) continue;
      const group = groups.get(message.groupId) ?? [];
      group.push(message);
      groups.set(message.groupId, group);
    }
    const taken = [...groups.values()].flat().slice(0, max);
    for (const message of taken) {
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + visibilityMs;
    }
    return taken;
  };

  const nextVisibleAt = (queue: Queue, now: number): number | undefined => {
    let next: number | undefined;
    for (const { visibleAt } of queue.messages.values()) {
      if (visibleAt > now && (next === undefined || visibleAt < next)) next = visibleAt;
    }
    return next;
  };

  const receive = async (input: Input, signal: AbortSignal) => {
    const queue = queueOf(input);
    const max = integer(input, 'MaxNumberOfMessages', 1, 10, 1);
    const visibilityMs =
      integer(input, 'VisibilityTimeout', 0, MAX_VISIBILITY_SECONDS, queue.visibilityMs / 1000) * 1000;
    const deadline = Date.now() + integer(input, 'WaitTimeSeconds', 0, MAX_WAIT_SECONDS, 0) * 1000;
    const names = new Set([...list(input, 'AttributeNames'), ...list(input, 'MessageSystemAttributeNames')]);
    const wanted = names.has('All') ? RECEIVE_ATTRIBUTES : RECEIVE_ATTRIBUTES.filter((n) => names.has(n));
    let taken: Message[] = [];
    for (;;) {
      const now = Date.now();
      taken = take(queue, max, visibilityMs, now);
      if (taken.length > 0 || now >= deadline || stopped || signal.aborted) break;
      await changeOf(queue, Math.min(deadline, nextVisibleAt(queue, now) ?? deadline) - now, signal);
    }
    if (taken.length === 0) return {};
    return {
      Messages: taken.map((message) => {
        const all: Record<(typeof RECEIVE_ATTRIBUTES)[number], string | undefined> = {
          ApproximateReceiveCount: String(message.receiveCount),
          ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
          SentTimestamp: String(message.sentAt),
          MessageGroupId: message.groupId,
          MessageDeduplicationId: message.dedupId,
          SequenceNumber: message.sequenceNumber,
          DeadLetterQueueSourceArn: message.deadLetterSourceArn,
        };
        const attributes = Object.fromEntries(
          wanted.flatMap((n) => (all[n] === undefined ? [] : [[n, all[n]]])),
        );
        return {
          MessageId: message.id,
          ReceiptHandle: receiptHandle(queue, message),
          MD5OfBody: md5(message.body),
          Body: message.body,
          ...(wanted.length > 0 ? { Attributes: attributes } : {}),
        };
      }),
    };
  };

  /** The in-flight message whose latest receipt handle this is, or an error like SQS's. */
  const inFlight = (queue: Queue, handle: string): Message => {
    const parsed = parseHandle(handle);
    if (!parsed || parsed[0] !== queue.name) {
      throw new SqsError(
        'ReceiptHandleIsInvalid',
        `The input receipt handle "${handle}" is not a valid receipt handle.`,
      );
    }
    const message = queue.messages.get(parsed[1]);
    if (message && message.receiveCount === parsed[2] && message.visibleAt > Date.now()) return message;
    throw invalid('ReceiptHandle', handle, 'The receipt handle has expired.');
  };

  const deleteMessage = (queue: Queue, input: Input) => {
    const handle = text(input, 'ReceiptHandle');
    if (queue.deleted.has(handle)) return; // deleting again succeeds
    const message = inFlight(queue, handle);
    queue.messages.delete(message.id);
    const now = Date.now();
    prune(queue, now);
    queue.deleted.set(handle, now);
    notify(queue);
  };

  /** Runs `each` on a batch's entries: per-entry Successful / Failed, like SQS. */
  const batch = (input: Input, each: (entry: Input) => Input) => {
    const entries = list(input, 'Entries').map(record);
    if (entries.length === 0) {
      throw new SqsError('EmptyBatchRequest', 'There should be at least one entry in the request.');
    }
    if (entries.length > 10) {
      throw new SqsError(
        'TooManyEntriesInBatchRequest',
        `Maximum number of entries per request are 10. You have sent ${entries.length}.`,
      );
    }
    const ids = entries.map((entry) => entry.Id);
    for (const id of ids) {
      if (typeof id !== 'string' || !BATCH_ENTRY_ID.test(id)) {
        throw new SqsError(
          'InvalidBatchEntryId',
          'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
        );
      }
    }
    if (new Set(ids).size !== ids.length) {
      throw new SqsError(
        'BatchEntryIdsNotDistinct',
        'Two or more batch entries in the request have the same Id.',
      );
    }
    const Successful: Input[] = [];
    const Failed: Input[] = [];
    for (const entry of entries) {
      try {
        Successful.push({ Id: entry.Id, ...each(entry) });
      } catch (error) {
        if (!(error instanceof SqsError)) throw error;
        Failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
      }
    }
    return { Successful, Failed };
  };

  const queueAttributes = (queue: Queue, input: Input) => {
    const names = new Set(list(input, 'AttributeNames'));
    const { visible, inFlight } = depthOf(queue);
    const all: Record<string, string> = {
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(inFlight),
      ApproximateNumberOfMessagesDelayed: '0',
      VisibilityTimeout: String(queue.visibilityMs / 1000),
      DelaySeconds: '0',
      FifoQueue: 'true',
      ContentBasedDeduplication: 'false',
      QueueArn: queue.arn,
      ...(queue.deadLetter
        ? {
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: queue.deadLetter.arn,
              maxReceiveCount: queue.maxReceiveCount,
            }),
          }
        : {}),
    };
    for (const name of names) {
      if (name !== 'All' && !(typeof name === 'string' && name in all)) {
        throw new SqsError('InvalidAttributeName', `Unknown Attribute ${String(name)}.`);
      }
    }
    return {
      Attributes: Object.fromEntries(Object.entries(all).filter(([n]) => names.has('All') || names.has(n))),
    };
  };

  const depthOf = (queue: Queue) => {
    const now = Date.now();
    redrive(now);
    let inFlight = 0;
    for (const message of queue.messages.values()) if (message.visibleAt > now) inFlight += 1;
    return { visible: queue.messages.size - inFlight, inFlight };
  };

  const operations: Record<string, (input: Input, signal: AbortSignal) => Input | Promise<Input>> = {
    SendMessage: (input) => send(queueOf(input), input),
    SendMessageBatch: (input) => {
      const queue = queueOf(input);
      const entries = list(input, 'Entries').map(record);
      const bytes = entries.reduce((sum, e) => sum + Buffer.byteLength(String(e.MessageBody ?? '')), 0);
      if (bytes > MAX_MESSAGE_BYTES) {
        throw new SqsError(
          'BatchRequestTooLong',
          `Batch requests cannot be longer than ${MAX_MESSAGE_BYTES} bytes.`,
        );
      }
      return batch(input, (entry) => send(queue, entry));
    },
    ReceiveMessage: receive,
    DeleteMessage: (input) => {
      deleteMessage(queueOf(input), input);
      return {};
    },
    DeleteMessageBatch: (input) => {
      const queue = queueOf(input);
      return batch(input, (entry) => {
        deleteMessage(queue, entry);
        return {};
      });
    },
    ChangeMessageVisibility: (input) => {
      const queue = queueOf(input);
      if (input.VisibilityTimeout === undefined) throw missing('VisibilityTimeout');
      const seconds = integer(input, 'VisibilityTimeout', 0, MAX_VISIBILITY_SECONDS, 0);
      const message = inFlight(queue, text(input, 'ReceiptHandle'));
      message.visibleAt = Date.now() + seconds * 1000;
      notify(queue);
      return {};
    },
    GetQueueAttributes: (input) => queueAttributes(queueOf(input), input),
    GetQueueUrl: (input) => {
      const queue = queues.get(text(input, 'QueueName'));
      if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
      return { QueueUrl: queue.url };
    },
  };

  const answer = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    if (res.destroyed) return;
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      ...headers,
    });
    res.end(JSON.stringify(body));
  };

  const fail = (res: ServerResponse, error: SqsError) => {
    const [queryCode, status] = QUERY_ERRORS[error.code] ?? [error.code, 400];
    answer(
      res,
      status,
      { __type: `com.amazonaws.sqs#${error.code}`, message: error.message },
      { 'x-amzn-query-error': `${queryCode};Sender` },
    );
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_REQUEST_BYTES) throw new SqsError('BatchRequestTooLong', 'The request is too long.');
        chunks.push(chunk);
      }
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.startsWith('AmazonSQS.') ? target.slice('AmazonSQS.'.length) : '';
      if (req.method !== 'POST' || !operation) {
        throw new SqsError(
          'UnsupportedOperation',
          'Only the AWS JSON protocol (POST / with x-amz-target) is served.',
        );
      }
      const run = operations[operation];
      if (!run) {
        throw new SqsError('UnsupportedOperation', `${operation} is not implemented by the local SQS.`);
      }
      let input: unknown;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        throw new SqsError('SerializationException', 'The request body is not JSON.');
      }
      answer(res, 200, await run(record(input), abort.signal));
    } catch (error) {
      if (error instanceof SqsError) return fail(res, error);
      console.error('sqs-local: internal error', error instanceof Error ? error.stack : error);
      answer(res, 500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Internal error.' });
    }
  };

  for (const { name, visibilityTimeoutSeconds } of definitions) {
    if (!name.endsWith('.fifo')) throw new Error(`sqs-local: only FIFO queues (name ending .fifo): ${name}`);
    if (queues.has(name)) throw new Error(`sqs-local: queue ${name} defined twice`);
    const seconds = visibilityTimeoutSeconds;
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_VISIBILITY_SECONDS) {
      throw new Error(`sqs-local: ${name}: visibilityTimeoutSeconds must be 0–${MAX_VISIBILITY_SECONDS}`);
    }
    queues.set(name, {
      name,
      url: '', // set once the port is known
      arn: `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`,
      visibilityMs: visibilityTimeoutSeconds * 1000,
      messages: new Map(),
      dedup: new Map(),
      deleted: new Map(),
      lastSequence: 0n,
      waiters: new Set(),
    });
  }
  for (const { name, maxReceiveCount, deadLetterQueue } of definitions) {
    if ((maxReceiveCount === undefined) !== (deadLetterQueue === undefined)) {
      throw new Error(`sqs-local: ${name}: maxReceiveCount and deadLetterQueue go together`);
    }
    if (maxReceiveCount === undefined || deadLetterQueue === undefined) continue;
    if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1 || maxReceiveCount > 1000) {
      throw new Error(`sqs-local: ${name}: maxReceiveCount must be 1–1000`);
    }
    const queue = queueNamed(name);
    queue.maxReceiveCount = maxReceiveCount;
    queue.deadLetter = queues.get(deadLetterQueue);
    if (!queue.deadLetter || deadLetterQueue === name) {
      throw new Error(
        `sqs-local: ${name}: dead-letter queue ${deadLetterQueue} is not another queue defined here`,
      );
    }
  }

  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve); // loopback only: no signature is checked
  });
  const { port } = server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  for (const queue of queues.values()) queue.url = `${endpoint}/${ACCOUNT}/${queue.name}`;

  return {
    endpoint,
    queueUrl: (name) => queueNamed(name).url,
    depth: (name) => depthOf(queueNamed(name)),
    messages: (name) => {
      const queue = queueNamed(name);
      const now = Date.now();
      redrive(now);
      return [...queue.messages.values()].map((m) => ({
        messageId: m.id,
        body: m.body,
        messageGroupId: m.groupId,
        messageDeduplicationId: m.dedupId,
        receiveCount: m.receiveCount,
        inFlight: m.visibleAt > now,
      }));
    },
    stop: async () => {
      // Ends the pending long polls now (clearing their timers), before their connections close.
      stopped = true;
      for (const queue of queues.values()) notify(queue);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
};
