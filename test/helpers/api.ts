/**
 * Calls handlers the way API Gateway would, without a socket: route table match, payload 2.0
 * event, the real handler module with its middleware and the real (test) store. The code lives
 * in local/ (the benchmark uses it too); the tests import it from here.
 */
export { type ApiResponse, type InvokeOptions, invoke } from '../../local/invoke';
export { newTenant, type Tenant } from '../../local/tenant';
