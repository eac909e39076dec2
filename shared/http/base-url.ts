import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';

/**
 * The API's public origin as clients reach it, for links in answers: PUBLIC_BASE_URL when set (a
 * custom domain), else the scheme and host the request came in on.
 */
export const baseUrlOf = (event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string => {
  const configured = config().PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  return `${proto}://${event.requestContext.domainName}`;
};
