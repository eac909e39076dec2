import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import { SERVICE_NAME } from '../http/logger';
import type { TracingOptions } from './tracing';

/**
 * Powertools Tracer, loaded only through tracing.ts when tracing is bundled in. One tracer per
 * instance, made by the first handler that asks (a bundle holds one handler; the local server
 * holds several, where the tracer is disabled anyway: it traces in Lambda only).
 */
let tracer: Tracer | undefined;

const tracerFor = (http: boolean): Tracer => {
  tracer ??= new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: http });
  return tracer;
};

const traced = new WeakSet<object>();

export const traceClient = <C extends object>(client: C): C => {
  if (!traced.has(client)) {
    tracerFor(true).captureAWSv3Client(client as never);
    traced.add(client);
  }
  return client;
};

export const tracingMiddlewares = ({ awsClients, http = true }: TracingOptions): MiddlewareObj[] => {
  const handlerTracer = tracerFor(http);
  return [
    captureLambdaHandler(handlerTracer, { captureResponse: false }) as MiddlewareObj,
    {
      before: () => {
        for (const client of awsClients?.() ?? []) traceClient(client);
      },
    },
  ];
};
