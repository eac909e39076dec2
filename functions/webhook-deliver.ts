import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../shared/config';
import { readFeedEvent } from '../shared/domain/feed';
import { dispatchDelivery, type EventRenderer } from '../shared/domain/webhook-dispatch';
import { errorFields, logContext, logger } from '../shared/http/logger';
import { eventView } from '../shared/http/views/event';
import { pageUrl } from '../shared/http/views/page';
import { tracing } from '../shared/observability/tracing';
import { parseDeliveryMessage, retryAfter } from '../shared/queue/delivery-queue';
import { db } from '../shared/store/dynamo';

/**
 * The webhook delivery function: the delivery queue's consumer (infra/webhook-pipeline.ts: batches
 * of one; locally local/event-pipeline.ts). Each message is one attempt of one event to one
 * subscription (domain/webhook-dispatch.ts). A failed attempt stays in the queue, invisible for
 * its backoff (ChangeMessageVisibility), and is reported in `batchItemFailures`, as is every later
 * message of its group in the batch (they must not overtake it); the rest are deleted.
 * Its log lines carry the Lambda context (shared/http/logger.ts).
 */

/** The event as `GET /event/list` shows it (standard names), and the feed's URL reading on after `resumeAfter`. */
const render: EventRenderer = async (tenantId, eventSk, resumeAfter) => {
  const found = await readFeedEvent(tenantId, eventSk, resumeAfter);
  if (!found) return undefined;
  const { DELIVERY_BASE_URL, PUBLIC_BASE_URL } = config();
  const base = (PUBLIC_BASE_URL ?? DELIVERY_BASE_URL ?? '').replace(/\/+$/, '');
  return {
    event: eventView(found.event, found.related, base, { statusName: (s) => s }),
    cursorUrl: pageUrl(`${base}/event/list`, {}, found.next),
  };
};

const deliverBatch = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed: string[] = [];
  const stalledGroups = new Set<string>();
  for (const record of event.Records) {
    const group = record.attributes.MessageGroupId ?? record.messageId;
    if (stalledGroups.has(group)) {
      failed.push(record.messageId);
      continue;
    }
    const message = parseDeliveryMessage(record.body);
    if (!message) {
      logger.error('dropped a delivery message that is not ours', { messageId: record.messageId });
      continue;
    }
    const receipt = {
      receives: Number(record.attributes.ApproximateReceiveCount) || 1,
      firstReceivedAt: Number(record.attributes.ApproximateFirstReceiveTimestamp) || Date.now(),
    };
    try {
      const result = await dispatchDelivery(message, receipt, render);
      if (result.done) {
        if (result.disabled)
          logger.warn('webhook disabled after persistent failures', {
            tenantId: message.tenantId,
            webhookId: message.webhookId,
          });
        continue;
      }
      await retryAfter(record.receiptHandle, result.retryInMs);
    } catch (error) {
      // The store or the queue failed: the message comes back after the queue's visibility timeout.
      logger.error('delivery attempt failed', {
        tenantId: message.tenantId,
        webhookId: message.webhookId,
        error: errorFields(error),
      });
    }
    failed.push(record.messageId);
    stalledGroups.add(group);
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};

export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>({ timeoutEarlyInMillis: 0 })
  // Receivers' URLs are the tenants' own (a path may hold a secret): no HTTP subsegments.
  .use(tracing({ awsClients: () => [db()], http: false }))
  .use(logContext())
  .handler(deliverBatch);
