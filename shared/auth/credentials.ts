import { Unauthorized } from '../store/errors';
import { isId } from '../store/ids';

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** `Authorization: Bearer <token>` plus `clientId: <id>`; anything else is the same 401. */
export const bearerCredentials = (headers: Record<string, string | undefined>) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  const clientId = (headers.clientid ?? '').trim();
  const token = match?.[1] ?? '';
  if (!isId(clientId) || !TOKEN.test(token)) throw new Unauthorized();
  return { clientId, token };
};

/** `Authorization: Basic base64(clientId:secret)` — the apiToken printed by the operator CLI. */
export const basicCredentials = (headers: Record<string, string | undefined>) => {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(headers.authorization ?? '');
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (colon < 0 || !isId(clientId) || !TOKEN.test(secret)) throw new Unauthorized('Basic');
  return { clientId, secret };
};
