import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from '../config';

/**
 * Which region's replica of the table a request's store calls go to (docs/regions.md). By
 * default the function's own region (`AWS_REGION`); the http layer opens a scope for each
 * request (`withRegionScope`) and, once the client is known, sends a tenant's writes (and the
 * reads they are planned from) to the tenant's home region (`useRegion`), so that every
 * condition and transaction of a tenant is evaluated on one replica. Workers and the CLI run
 * without a scope: their own region.
 */
interface RegionScope {
  region?: string;
  /** The tenant's home region, once the client is known (its attachments' bucket is there). */
  home?: string;
  /** The tenant whose home that is. */
  tenantId?: string;
}

const scope = new AsyncLocalStorage<RegionScope>();

export const withRegionScope = <T>(work: () => Promise<T>): Promise<T> => scope.run({}, work);

/** Sends the rest of the current request's store calls to `region` (no-op outside a scope). */
export const useRegion = (region: string): void => {
  const current = scope.getStore();
  if (current) current.region = region;
};

/** Records the tenant and its home for the rest of the request (no-op outside a scope). */
export const useHome = (region: string, tenantId: string): void => {
  const current = scope.getStore();
  if (current) Object.assign(current, { home: region, tenantId });
};

/** The home of a client that names none: clients created before regions live in the primary. */
export const defaultHomeRegion = (): string => config().PRIMARY_REGION ?? config().AWS_REGION;

/**
 * Several regions: the tenant and home a request's writes are running at (its home replica),
 * which the write must check is still the tenant's home (store/home-fence.ts). Undefined in a
 * single region, outside a request, and for calls not sent home.
 */
export const homedWrite = (): { tenantId: string; home: string } | undefined => {
  const current = scope.getStore();
  if (!config().REGIONS || !current?.home || !current.tenantId || storeRegion() !== current.home)
    return undefined;
  return { tenantId: current.tenantId, home: current.home };
};

/** The home region of the request's tenant; the function's own region when unknown. */
export const homeRegionOfRequest = (): string => scope.getStore()?.home ?? config().AWS_REGION;

/** Runs `work` with its store calls in `region` (an explicit read of another replica). */
export const inRegion = <T>(region: string, work: () => Promise<T>): Promise<T> =>
  scope.run({ region }, work);

/** The region the store calls made now go to. */
export const storeRegion = (): string => scope.getStore()?.region ?? config().AWS_REGION;

/**
 * The endpoint of `region`'s replica: the function's own (DYNAMODB_ENDPOINT locally, AWS's
 * default otherwise), another region's from REGION_ENDPOINTS (local simulations), or AWS's
 * default endpoint of that region.
 */
export const endpointOf = (region: string): string | undefined => {
  const { AWS_REGION, DYNAMODB_ENDPOINT, REGION_ENDPOINTS } = config();
  if (region === AWS_REGION) return DYNAMODB_ENDPOINT;
  const listed = listedFor(REGION_ENDPOINTS, region);
  if (listed) return listed;
  if (DYNAMODB_ENDPOINT) throw new Error(`no local endpoint for region ${region} (REGION_ENDPOINTS)`);
  return undefined;
};

/** `region`'s value in a per-region setting written `region=value,…` (REGION_ENDPOINTS, BUCKETS). */
export const listedFor = (setting: string | undefined, region: string): string | undefined =>
  setting
    ?.split(',')
    .map((pair) => pair.split('='))
    .find(([name]) => name === region)?.[1];
