import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialLevel, Logger } from '../../shared/http/logger';

/** The service's own logger (shared/http/logger.ts): levels, streams, the line's keys. */
let out: string[] = [];
let err: string[] = [];
beforeEach(() => {
  out = [];
  err = [];
  const keep = (into: string[]) => (chunk: unknown) => {
    into.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep(out) as never);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep(err) as never);
});
afterEach(() => vi.restoreAllMocks());

const lines = (from: string[]) => from.map((l) => JSON.parse(l) as Record<string, unknown>);
const context = (requestId: string) =>
  ({
    functionName: 'ticket-detail',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:ticket-detail',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
  }) as Context;

describe('initialLevel', () => {
  it('takes POWERTOOLS_LOG_LEVEL, then LOG_LEVEL, then INFO, never under Lambda’s application level', () => {
    expect(initialLevel({})).toBe('INFO');
    expect(initialLevel({ LOG_LEVEL: 'debug' })).toBe('DEBUG');
    expect(initialLevel({ LOG_LEVEL: 'DEBUG', POWERTOOLS_LOG_LEVEL: 'WARN' })).toBe('WARN');
    expect(initialLevel({ LOG_LEVEL: 'nonsense' })).toBe('INFO');
    expect(initialLevel({ LOG_LEVEL: 'DEBUG', AWS_LAMBDA_LOG_LEVEL: 'WARN' })).toBe('WARN');
    expect(initialLevel({ LOG_LEVEL: 'ERROR', AWS_LAMBDA_LOG_LEVEL: 'DEBUG' })).toBe('ERROR');
  });
});

describe('Logger', () => {
  it('writes one JSON line per call: level, message, timestamp, service, context, keys, fields', () => {
    const logger = new Logger({
      serviceName: 'helpdesk',
      env: { AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' },
    });
    logger.startInvocation(
      context('r-1'),
      'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    );
    logger.appendKeys({ requestId: 'api-1', tenantId: 't' });
    logger.info('request', { status: 200 });
    const [line] = lines(out);
    expect(Object.keys(line ?? {}).slice(0, 4)).toEqual(['level', 'message', 'timestamp', 'service']);
    expect(line).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'helpdesk',
      cold_start: true,
      function_arn: 'arn:aws:lambda:eu-west-1:123456789012:function:ticket-detail',
      function_memory_size: 1024,
      function_name: 'ticket-detail',
      function_request_id: 'r-1',
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      requestId: 'api-1',
      tenantId: 't',
      status: 200,
    });
    // The next invocation: no longer a cold start, its own request id, no trace id when Lambda set none.
    logger.resetKeys();
    logger.startInvocation(context('r-2'), undefined);
    logger.info('again');
    expect(lines(out)[1]).toMatchObject({ cold_start: false, function_request_id: 'r-2' });
    expect(lines(out)[1]).not.toHaveProperty('xray_trace_id');
    expect(lines(out)[1]).not.toHaveProperty('requestId');
  });

  it('is never a cold start where Lambda does not say the instance is on demand (Powertools’ rule)', () => {
    const logger = new Logger({ serviceName: 's', env: {} });
    logger.startInvocation(context('r'));
    logger.info('x');
    expect(lines(out)[0]).toMatchObject({ cold_start: false });
  });

  it('sends INFO and below to stdout, WARN and ERROR to stderr, and drops what is under its level', () => {
    const logger = new Logger({ serviceName: 's', env: { LOG_LEVEL: 'INFO' } });
    logger.trace('t');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines(out).map((l) => l.message)).toEqual(['i']);
    expect(lines(err).map((l) => [l.level, l.message])).toEqual([
      ['WARN', 'w'],
      ['ERROR', 'e'],
    ]);
    expect(logger.getLevelName()).toBe('INFO');
  });

  it('keeps its own keys when a call’s fields name them', () => {
    const logger = new Logger({ serviceName: 's', env: {} });
    logger.warn('what happened', { message: 'from an error', level: 'DEBUG', service: 'x', detail: 1 });
    expect(lines(err)[0]).toMatchObject({ level: 'WARN', message: 'what happened', service: 's', detail: 1 });
  });

  it('writes the line without its fields when JSON cannot write them, and never throws', () => {
    const logger = new Logger({ serviceName: 's', env: {} });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => logger.info('cyclic', { cycle })).not.toThrow();
    expect(() => logger.info('big', { n: 10n })).not.toThrow();
    expect(lines(out)).toEqual([
      expect.objectContaining({ message: 'cyclic', logError: expect.any(String) }),
      expect.objectContaining({ message: 'big', logError: expect.any(String) }),
    ]);
    expect(lines(out)[0]).not.toHaveProperty('cycle');
  });

  it('samples whole invocations at DEBUG (POWERTOOLS_LOGGER_SAMPLE_RATE), then goes back to its level', () => {
    const logger = new Logger({
      serviceName: 's',
      env: { LOG_LEVEL: 'INFO', POWERTOOLS_LOGGER_SAMPLE_RATE: '0.5' },
    });
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.25);
    logger.startInvocation(context('sampled'));
    expect(logger.getLevelName()).toBe('DEBUG');
    logger.debug('seen');
    random.mockReturnValue(0.75);
    logger.startInvocation(context('not sampled'));
    expect(logger.getLevelName()).toBe('INFO');
    logger.debug('not seen');
    expect(lines(out).map((l) => l.message)).toEqual(['seen']);
  });
});
