import type { ImportError } from './imports';
import { keys } from './keys';
import { countEntries } from './page-count';
import { pageOf } from './page-read';
import type { PageSource } from './page-source';
import type { Page } from './pages';
import { TABLE_KEY } from './table-schema';

/**
 * A page of an import job's failed lines, in line order (the caller read the job: it is the
 * tenant's). Apart from store/imports.ts, so that writes that report an import carry no page code.
 */
export const importErrorPage = async (
  tenantId: string,
  jobId: string,
  query: { page: number; cursor?: string },
): Promise<Page<ImportError>> => {
  const source: PageSource = {
    tenantId,
    resource: 'importError',
    index: TABLE_KEY,
    partition: keys.importErrors(tenantId, jobId),
    order: 'oldest',
    consistent: true,
    count: { by: () => countEntries(source) },
    carryCount: true,
  };
  return (await pageOf(source, query.page, query.cursor)) as unknown as Page<ImportError>;
};
