import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ITERATOR_AGE_ALARM } from './stream-worker';

/**
 * The alarms of the workers' pipelines (infra/webhook-pipeline.ts, infra/cascade-worker.ts): one
 * period of 5 minutes, missing data not breaching (SQS stops reporting idle queues, Lambda reports
 * IteratorAge only while it reads), no action (infra/monitoring.ts adds the alarm topic).
 */
export const WORKER_ALARM_PERIOD = Duration.minutes(5);

export const workerAlarm = (
  scope: Construct,
  id: string,
  metric: IMetric,
  threshold: number,
  description: string,
  atLeast = false,
): Alarm =>
  new Alarm(scope, id, {
    metric,
    threshold,
    comparisonOperator: atLeast
      ? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
      : ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    datapointsToAlarm: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
  });

/** Messages waiting in a queue (a dead-letter or failures queue holding any is the alarm). */
export const visibleMessages = (queue: IQueue): IMetric =>
  queue.metricApproximateNumberOfMessagesVisible({ period: WORKER_ALARM_PERIOD, statistic: Stats.MAXIMUM });

/** How far a stream reader is behind its stream. */
export const iteratorAge = (fn: IFunction): IMetric =>
  fn.metric('IteratorAge', { period: WORKER_ALARM_PERIOD, statistic: Stats.MAXIMUM });

/**
 * A stream reader's two alarms (the cascade worker's, the search indexer's): records given up on
 * after the stream's retention (its failures queue holds one), and reading further behind the
 * stream than ITERATOR_AGE_ALARM. `notes` says what each means for that reader and what to do.
 */
export const streamReaderAlarms = (
  scope: Construct,
  reader: IFunction,
  failures: IQueue,
  notes: { failures: string; lag: string },
): Alarm[] => [
  workerAlarm(scope, 'FailuresAlarm', visibleMessages(failures), 1, notes.failures, true),
  workerAlarm(scope, 'IteratorAgeAlarm', iteratorAge(reader), ITERATOR_AGE_ALARM.toMilliseconds(), notes.lag),
];
