import {
  ExecuteStatementCommand,
  type Field,
  RDSDataClient,
  type SqlParameter,
} from '@aws-sdk/client-rds-data';
import { withoutSdkLogging } from '../aws/sdk-logging';
import { sdkHashing } from '../aws/sha256';
import type { Row, SqlEngine, SqlValue } from './sql-engine';

/**
 * The deployed search engine: the region's Aurora PostgreSQL Serverless v2 cluster through the
 * RDS Data API (IAM-authorised HTTPS: no VPC for the functions, no connection pool), as the
 * cluster's secret's user. Statements keep their `$n` placeholders; the Data API names its
 * parameters, so `$n` is sent as `:pn`.
 */
export interface DataApiTarget {
  clusterArn: string;
  secretArn: string;
  database: string;
}

const parameter = (value: SqlValue, index: number): SqlParameter => {
  const name = `p${index + 1}`;
  const field: Field =
    value === null
      ? { isNull: true }
      : typeof value === 'boolean'
        ? { booleanValue: value }
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? { longValue: value }
            : { doubleValue: value }
          : { stringValue: value };
  return { name, value: field };
};

/** `$1` → `:p1`; the statements hold no `$` in literals (they are this code's own, never a caller's). */
export const namedPlaceholders = (sql: string): string => sql.replace(/\$(\d+)/g, ':p$1');

export const openDataApi = (target: DataApiTarget): SqlEngine => {
  const client = withoutSdkLogging(new RDSDataClient({ ...sdkHashing }));
  return {
    query: async <T extends Row>(sql: string, params: readonly SqlValue[] = []) => {
      const out = await client.send(
        new ExecuteStatementCommand({
          resourceArn: target.clusterArn,
          secretArn: target.secretArn,
          database: target.database,
          sql: namedPlaceholders(sql),
          parameters: params.map(parameter),
          formatRecordsAs: 'JSON',
        }),
      );
      return out.formattedRecords ? (JSON.parse(out.formattedRecords) as T[]) : [];
    },
    close: async () => client.destroy(),
  };
};
