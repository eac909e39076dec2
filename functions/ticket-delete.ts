import { notImplementedHandler } from '../shared/http/not-implemented';

export const handler = notImplementedHandler('ticketDelete');
