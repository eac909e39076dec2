import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';

/**
 * What the Lambda runtime gives a handler, minus the cloud: the handler module loaded once
 * per process (like a warm container) and a context object shaped like the real one.
 * Used through local/invoke.ts, so the server, the tests and the bench run handlers the same way.
 */
export type HttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyResultV2>;

/** Resolves a route's handler by its file name under functions/ (without `.ts`). */
export type HandlerLoader = (name: string) => Promise<HttpHandler>;

const functionsDir = new URL('../functions/', import.meta.url);
const modules = new Map<string, Promise<{ handler: HttpHandler }>>();

/** Imports `functions/<name>.ts` once; a failed import is retried on the next request. */
export const loadHandler: HandlerLoader = async (name) => {
  let module = modules.get(name);
  if (!module) {
    module = import(new URL(`${name}.ts`, functionsDir).href);
    modules.set(name, module);
    module.catch(() => modules.delete(name));
  }
  const { handler } = await module;
  if (typeof handler !== 'function') throw new Error(`functions/${name}.ts does not export a handler`);
  return handler;
};

/** The deployed functions' timeout (infra/api-function.ts); HELPDESK_TIMEOUT_MS shortens it for fault tests. */
const timeoutMs = () => Number(process.env.HELPDESK_TIMEOUT_MS ?? 10_000);

export const lambdaContext = (functionName: string, awsRequestId: string, timeout = timeoutMs()): Context => {
  const deadline = Date.now() + timeout;
  const unsupported = () => {
    throw new Error('callback-style completion is not used by these handlers');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
};
