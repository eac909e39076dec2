import { createHash } from 'node:crypto';
import { CustomResource, Duration, Fn, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  AuroraPostgresEngineVersion,
  ClusterInstance,
  Credentials,
  DatabaseCluster,
  DatabaseClusterEngine,
} from 'aws-cdk-lib/aws-rds';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MIGRATIONS } from '../shared/search/schema';
import { CASCADE_ATTRIBUTE } from '../shared/store/keys';
import { handlerOf } from '../shared/workers';
import { ApiFunction } from './api-function';
import {
  ITERATOR_AGE_ALARM,
  newEvents,
  STREAM_RETENTION,
  streamSource,
  workerQueueProps,
} from './stream-worker';
import { streamReaderAlarms } from './worker-alarms';

export interface SearchIndexProps {
  /** The table: its stream carries the change feed's events the indexer applies. */
  readonly table: ITableV2;
  /** Several regions: the other regions' replicas, where a tenant homed there is read (search/indexer.ts). */
  readonly replicaTableArns?: readonly string[];
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly environment?: Record<string, string>;
  /** The most Aurora capacity units the cluster may scale to (the context's `searchMaxCapacity`); 0 when idle. */
  readonly maxCapacity: number;
}

/** The database the index lives in. */
export const SEARCH_DATABASE = 'helpdesk';
/** Idle this long, the cluster pauses: an idle stage costs its storage only. */
export const AUTO_PAUSE = Duration.minutes(10);
/** A batch of up to 100 events: each ticket's collection read, one statement per record. */
export const INDEXER_TIMEOUT = Duration.minutes(2);

/**
 * The search index of one region (docs/search.md): an Aurora PostgreSQL Serverless v2 cluster
 * (PostgreSQL 15, 0 ACU when idle, auto-paused) in a VPC of isolated subnets, reached by the
 * functions through the RDS Data API only (IAM-authorised HTTPS: no function is in the VPC); its
 * schema migrated on deploy by a custom resource (functions/search-migrate.ts) before the
 * functions using it are updated; and the indexer (functions/search-indexer.ts), which applies
 * the table stream's change-feed events and finished erasures. Several regions: each region's
 * stack has its own, fed by its replica's stream.
 */
export class SearchIndex extends Construct {
  readonly vpc: Vpc;
  readonly cluster: DatabaseCluster;
  readonly indexer: ApiFunction;
  readonly migrator: ApiFunction;
  /** Stream batches given up on after 24 h (their metadata): `helpdesk search reindex` rebuilds. */
  readonly failures: Queue;
  readonly migrations: CustomResource;
  /**
   * Its alarms, without actions: infra/monitoring.ts adds the topic. In the parent stack, as the
   * other workers' are: the monitoring's nested stack reads this one's resources, so this one may
   * not read the monitoring's topic.
   */
  readonly alarms: Alarm[] = [];
  readonly deletionProtection: boolean;
  /** The nested stack everything above lives in. */
  readonly stack: NestedStack;

  constructor(scope: Construct, id: string, props: SearchIndexProps) {
    super(scope, id);
    this.deletionProtection = props.deletionProtection;
    // A nested stack of its own: the parent stays under CloudFormation's 500 resources (with
    // tracing on, every function has more).
    const stack = new NestedStack(this, 'Stack', {
      description: `The search index of ${Stack.of(this).stackName}: its cluster, schema and indexer`,
    });
    this.stack = stack;
    // Two AZs (Aurora's subnet group needs them), no NAT, no internet: nothing in it calls out.
    this.vpc = new Vpc(stack, 'Vpc', {
      // The region's first two, resolved by CloudFormation (no literal AZ in the template).
      availabilityZones: [0, 1].map((i) => Fn.select(i, Fn.getAzs())),
      natGateways: 0,
      subnetConfiguration: [{ name: 'Database', subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
    });
    this.cluster = new DatabaseCluster(stack, 'Cluster', {
      engine: DatabaseClusterEngine.auroraPostgres({ version: AuroraPostgresEngineVersion.VER_15_17 }),
      credentials: Credentials.fromGeneratedSecret('helpdesk_search'),
      defaultDatabaseName: SEARCH_DATABASE,
      writer: ClusterInstance.serverlessV2('Writer', { autoMinorVersionUpgrade: true }),
      serverlessV2MinCapacity: 0,
      serverlessV2MaxCapacity: props.maxCapacity,
      serverlessV2AutoPauseDuration: AUTO_PAUSE,
      enableDataApi: true,
      storageEncrypted: true,
      deletionProtection: props.deletionProtection,
      backup: { retention: Duration.days(7) },
      vpc: this.vpc,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_ISOLATED },
      // The index is rebuilt from the table (`helpdesk search reindex`): a snapshot on removal suffices.
      removalPolicy:
        props.removalPolicy === RemovalPolicy.DESTROY ? RemovalPolicy.DESTROY : RemovalPolicy.SNAPSHOT,
    });

    const env = { ...props.environment, ...this.environment() };
    this.migrator = new ApiFunction(stack, 'MigrateFunction', {
      handlerFile: handlerOf('searchMigrate'),
      tableAccess: 'none',
      rateLimited: false,
      timeout: Duration.minutes(10),
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      environment: env,
    });
    this.grantStatements(this.migrator);
    // Runs again whenever a migration is added (their hash), and on the first deploy. The function
    // answers CloudFormation itself (functions/search-migrate.ts): no provider framework.
    this.migrations = new CustomResource(stack, 'Migrations', {
      serviceToken: this.migrator.functionArn,
      resourceType: 'Custom::SearchSchema',
      properties: { migrations: migrationsHash() },
    });
    this.migrations.node.addDependency(this.cluster);

    this.indexer = new ApiFunction(stack, 'IndexerFunction', {
      handlerFile: handlerOf('searchIndexer'),
      table: props.table,
      ...(props.replicaTableArns ? { replicaTableArns: props.replicaTableArns } : {}),
      tableAccess: 'read',
      // A ticket's collection (Query) and a customer's record (GetItem), both consistent.
      dynamo: ['GetItem', 'Query'],
      rateLimited: false,
      timeout: INDEXER_TIMEOUT,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      environment: env,
    });
    this.grantStatements(this.indexer);
    this.indexer.node.addDependency(this.migrations);
    this.failures = new Queue(stack, 'Failures', workerQueueProps(props.removalPolicy));
    this.indexer.addEventSource(
      streamSource(props.table, this.failures, [
        // Every region's events: each region keeps a whole index.
        newEvents(),
        // An erasure finished: the tickets it rewrote are indexed again.
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('MODIFY'),
          dynamodb: {
            NewImage: {
              [CASCADE_ATTRIBUTE]: { S: FilterRule.isEqual('erasure') },
              done: { BOOL: FilterRule.isEqual(true) },
            },
          },
        }),
      ]),
    );

    // In the parent stack (`this`), as the other workers' are: see `alarms`.
    this.alarms.push(
      ...streamReaderAlarms(this, this.indexer, this.failures, {
        failures:
          `The search indexer gave up on stream records after retrying them for ${STREAM_RETENTION.toHours()} h: ` +
          "searches miss those changes. Read the indexer's logs for the cause (the cluster or the table refusing), " +
          'fix it, then run `helpdesk search reindex --tenant <id>` for the tenants named there, or without ' +
          '--tenant for all (docs/operations.md, "Search").',
        lag:
          `The search indexer is more than ${ITERATOR_AGE_ALARM.toMinutes()} min behind the table's stream: ` +
          'searches answer from an old index and `Helpdesk-Min-Position` searches answer 503. A batch keeps ' +
          "failing (read the 'search index batch not applied' lines) or the cluster is at its capacity " +
          "(the dashboard's ACU graph; raise the context's searchMaxCapacity).",
      }),
    );
  }

  /** What a function using the index is told: the cluster, its secret and the database. */
  environment(): Record<string, string> {
    return {
      SEARCH_CLUSTER_ARN: this.cluster.clusterArn,
      SEARCH_SECRET_ARN: this.cluster.secret?.secretArn ?? '',
      SEARCH_DATABASE,
    };
  }

  /**
   * Lets `fn` run statements through the Data API as the cluster's user: ExecuteStatement on this
   * cluster (no transactions, no batches) and reading its secret, in the function's inline policy.
   */
  grantStatements(fn: ApiFunction): void {
    fn.inlineGrantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['rds-data:ExecuteStatement'], resources: [this.cluster.clusterArn] }),
    );
    this.cluster.secret?.grantRead(fn.inlineGrantee);
  }
}

/** A digest of every migration: the custom resource's property, so a new one runs on deploy. */
export const migrationsHash = (): string =>
  createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 16);
