/**
 * The AWS SDK's logger middleware, taken out of our clients' stacks. On every call it builds a
 * filtered copy of the call's input and of its whole answer (every item a Query or BatchGet
 * returned, walked against the service's schema) as the arguments of `logger.info`, and only then
 * calls the logger: the SDK's default logger, which writes nothing. We never give the SDK a
 * logger (our lines are chosen field by field: http/logger.ts), so the copy was work for nothing:
 * measured at 0.145 ms of a ticket detail's ~4.2 ms of profiled CPU (`npm run bench --
 * --only=throughput --profile`, `schemaLogFilter`). Removing it changes nothing else: the SDK's
 * own warnings go to its logger as before.
 */
export const withoutSdkLogging = <C extends { middlewareStack: { remove(name: string): boolean } }>(
  client: C,
): C => {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
};
