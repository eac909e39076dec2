import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { errorFields, logger } from '../shared/http/logger';
import { searchEngine } from '../shared/search/engine';
import { migrate } from '../shared/search/schema';

/** A paused Aurora cluster resumes in seconds; the deploy waits this long for it at most. */
const RESUME_WAIT_MS = 5 * 60_000;
const PHYSICAL_ID = 'search-schema';

const resuming = (error: unknown) =>
  ['DatabaseResumingException', 'DatabaseUnavailableException'].includes((error as Error)?.name ?? '');

const migrateWhenAwake = async (): Promise<number[]> => {
  const until = Date.now() + RESUME_WAIT_MS;
  for (;;) {
    try {
      return await migrate(await searchEngine());
    } catch (error) {
      if (!resuming(error) || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
};

/**
 * The search index's schema migration: a CloudFormation custom resource (infra/search.ts) whose
 * properties name the migrations, so every deploy that adds one runs this before the functions
 * that read or write the index are updated: the migrations not yet applied, in order
 * (search/schema.ts). Removing the resource leaves the database as it is. It answers
 * CloudFormation itself (the request's presigned response URL), so no provider framework function
 * and its managed-policy role are needed; whatever happens, it answers (a FAILED with the reason).
 */
export const handler = async (event: CloudFormationCustomResourceEvent, context: Context): Promise<void> => {
  let status: 'SUCCESS' | 'FAILED' = 'SUCCESS';
  let reason = '';
  let data: Record<string, string> = {};
  try {
    if (event.RequestType !== 'Delete') {
      const applied = await migrateWhenAwake();
      logger.info('search schema migrated', { applied });
      data = { applied: applied.join(',') };
    }
  } catch (error) {
    status = 'FAILED';
    reason = `Search schema migration failed: ${(error as Error)?.message ?? String(error)} (log stream ${context.logStreamName})`;
    logger.error('search schema migration failed', { error: errorFields(error) });
  }
  const body = JSON.stringify({
    Status: status,
    Reason: reason.slice(0, 3000),
    PhysicalResourceId: PHYSICAL_ID,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  });
  const answer = await fetch(event.ResponseURL, {
    method: 'PUT',
    headers: { 'content-type': '', 'content-length': String(Buffer.byteLength(body)) },
    body,
  });
  if (!answer.ok) throw new Error(`CloudFormation did not take the answer: ${answer.status}`);
};
