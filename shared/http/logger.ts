import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. Only fields chosen explicitly are logged (never the event, headers,
 * bodies or tokens): see request-log.ts.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'helpdesk' });
