import { type RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  ApiMapping,
  DomainName,
  EndpointType,
  type HttpApi,
  type HttpStage,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type ITableV2, type TablePropsV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Bucket, type CfnBucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret, type SecretProps } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct, Node } from 'constructs';

/**
 * Several regions (docs/regions.md, "The stacks"): `-c regions=<a>,<b>[,…] [-c primaryRegion=<a>]`.
 * One stack per region, `Helpdesk-<stage>-<region>`, each with an explicit environment:
 *
 * - the primary region's stack owns the global table (a replica in every other region) and the
 *   cursor secret (replicated to every other region) with its rotation schedule and function;
 *   the others reference both by name, rotate nothing, and are deployed after it;
 * - every region's stack has its own monitoring (infra/monitoring.ts) of its API, functions and
 *   table replica;
 * - every region has its own attachments bucket, replicating to every other region's bucket;
 * - functions are told the regions (REGIONS, PRIMARY_REGION, BUCKETS) and granted their route's
 *   actions (shared/routes.ts) on the table and the buckets in every region, since a tenant's
 *   writes and files go to its home region's;
 * - each region's webhook fan-out takes only the events written in that region.
 *
 * Names are deterministic in this mode only (each stack must find the others' resources without
 * a cross-region reference); a single-region deployment keeps its generated names.
 */

export interface DomainContext {
  /** The API's public name, e.g. `api.example.com`, routed by latency to the nearest region. */
  readonly name: string;
  readonly hostedZoneId: string;
  readonly hostedZoneName: string;
  /** An ACM certificate for `name` in each region, by region. */
  readonly certificateArns: Readonly<Record<string, string>>;
}

export interface RegionsContext {
  /** In the order given; at least one. */
  readonly regions: readonly string[];
  readonly primaryRegion: string;
  /** `-c account=<id>`, else the CLI's (CDK_DEFAULT_ACCOUNT); undefined: resolved at deployment. */
  readonly account?: string;
  /**
   * `-c newRegions=<c>[,…]`: regions whose stacks this deployment creates. No bucket replicates to
   * their buckets yet, since S3 refuses a replication rule to a bucket that does not exist; the next
   * deployment, without this key, adds those rules.
   */
  readonly newRegions: readonly string[];
  readonly domain?: DomainContext;
}

// aws, aws-cn, aws-us-gov, aws-iso… regions: `us-east-1`, `ap-southeast-2`, `us-gov-west-1`, `cn-north-1`.
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
const ACCOUNT = /^\d{12}$/;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
const CERTIFICATE = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;
/** Keys of the adoption of an existing table or bucket (infra/stack-context.ts, issue 14). */
const ADOPTION_KEYS = ['existingTableName', 'existingTableStreamArn', 'existingBucketName'] as const;
const DOMAIN_KEYS = ['domainName', 'hostedZoneId', 'hostedZoneName', 'certificateArns'] as const;

const fail = (message: string): never => {
  throw new Error(message);
};

/** A list from `-c key=a,b` (a string) or cdk.json (an array of strings). */
const readList = (node: Node, key: string): string[] | undefined => {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return undefined;
  const items =
    typeof raw === 'string'
      ? raw.split(',').map((s) => s.trim())
      : Array.isArray(raw) && raw.every((s) => typeof s === 'string')
        ? raw.map((s: string) => s.trim())
        : fail(`Context '${key}' must be comma-separated region names, got ${JSON.stringify(raw)}`);
  for (const item of items) {
    if (!REGION.test(item))
      fail(`Context '${key}' must be comma-separated region names (e.g. us-east-1), got '${item}'`);
  }
  const repeated = items.filter((item, i) => items.indexOf(item) !== i);
  if (repeated.length > 0) fail(`Context '${key}' names ${repeated[0]} twice`);
  return items;
};

const readString = (node: Node, key: string): string | undefined => {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return undefined;
  return typeof raw === 'string' ? raw.trim() : fail(`Context '${key}' must be a string`);
};

const readDomain = (node: Node, regions: readonly string[]): DomainContext | undefined => {
  const given = DOMAIN_KEYS.filter((k) => node.tryGetContext(k) !== undefined);
  if (given.length === 0) return undefined;
  const missing = DOMAIN_KEYS.filter((k) => !given.includes(k));
  if (missing.length > 0)
    fail(`A custom domain needs all of ${DOMAIN_KEYS.join(', ')}; missing: ${missing.join(', ')}`);
  if (regions.length < 2)
    fail(
      "A custom domain (context 'domainName') is routed by latency between the regions of a multi-region " +
        'deployment: give at least two with -c regions=<a>,<b>',
    );
  const name = (readString(node, 'domainName') as string).toLowerCase().replace(/\.$/, '');
  const hostedZoneName = (readString(node, 'hostedZoneName') as string).toLowerCase().replace(/\.$/, '');
  const hostedZoneId = readString(node, 'hostedZoneId') as string;
  if (!HOSTNAME.test(name)) fail(`Context 'domainName' must be a host name, got '${name}'`);
  if (!HOSTNAME.test(hostedZoneName))
    fail(`Context 'hostedZoneName' must be a domain, got '${hostedZoneName}'`);
  if (name !== hostedZoneName && !name.endsWith(`.${hostedZoneName}`))
    fail(`Context 'domainName' (${name}) is not in the hosted zone '${hostedZoneName}'`);
  if (!ZONE_ID.test(hostedZoneId))
    fail(`Context 'hostedZoneId' must be a Route 53 hosted zone id (Z…), got '${hostedZoneId}'`);

  const raw: unknown = node.tryGetContext('certificateArns');
  let arns: unknown = raw;
  if (typeof raw === 'string') {
    try {
      arns = JSON.parse(raw);
    } catch {
      fail(`Context 'certificateArns' must be JSON: {"<region>":"arn:aws:acm:<region>:…"}, got ${raw}`);
    }
  }
  if (typeof arns !== 'object' || arns === null || Array.isArray(arns))
    fail(`Context 'certificateArns' must be an object of certificate ARNs by region`);
  const byRegion = arns as Record<string, unknown>;
  for (const key of Object.keys(byRegion)) {
    if (!regions.includes(key))
      fail(`Context 'certificateArns' names ${key}, which is not one of the regions (${regions.join(', ')})`);
  }
  const certificateArns: Record<string, string> = {};
  for (const region of regions) {
    const arn = byRegion[region];
    if (arn === undefined)
      fail(
        `Context 'certificateArns' has no certificate for ${region}: API Gateway needs one in each region`,
      );
    const inRegion = typeof arn === 'string' ? CERTIFICATE.exec(arn)?.[1] : undefined;
    if (inRegion === undefined)
      fail(`Context 'certificateArns.${region}' must be an ACM certificate ARN, got ${JSON.stringify(arn)}`);
    if (inRegion !== region)
      fail(
        `Context 'certificateArns.${region}' is a certificate in ${inRegion}: a regional API needs one in ${region}`,
      );
    certificateArns[region] = arn as string;
  }
  return { name, hostedZoneId, hostedZoneName, certificateArns };
};

const withDomain = (domain: DomainContext | undefined) => (domain ? { domain } : {});

/**
 * The `regions` context and what goes with it; undefined without `regions` (one region-agnostic
 * stack, as always). Every inconsistency fails synthesis with the key to fix.
 */
export const readRegionsContext = (node: Node): RegionsContext | undefined => {
  const regions = readList(node, 'regions');
  if (regions === undefined) {
    for (const key of ['primaryRegion', 'newRegions', ...DOMAIN_KEYS]) {
      if (node.tryGetContext(key) !== undefined)
        fail(`Context '${key}' needs the regions it applies to: -c regions=<a>,<b>`);
    }
    return undefined;
  }
  // As infra/stack-context.ts reads them: an empty value is no value.
  const adopted = ADOPTION_KEYS.filter((k) => ![undefined, ''].includes(node.tryGetContext(k)));
  if (adopted.length > 0)
    fail(
      `Context '${adopted[0]}' (adopting an existing table or bucket) cannot be combined with 'regions': ` +
        'a multi-region deployment creates its global table, secret and buckets under fixed names. Not supported.',
    );
  const primaryRegion = readString(node, 'primaryRegion') ?? (regions[0] as string);
  if (!regions.includes(primaryRegion))
    fail(`Context 'primaryRegion' (${primaryRegion}) must be one of the regions: ${regions.join(', ')}`);
  const account = readString(node, 'account') ?? process.env.CDK_DEFAULT_ACCOUNT;
  if (account !== undefined && !ACCOUNT.test(account))
    fail(`Context 'account' must be a 12-digit AWS account id, got '${account}'`);
  const newRegions = readList(node, 'newRegions') ?? [];
  for (const region of newRegions) {
    if (!regions.includes(region))
      fail(`Context 'newRegions' names ${region}, which is not one of the regions`);
    if (region === primaryRegion)
      fail(
        `Context 'newRegions' names the primary region ${region}: its stack deploys first, so its bucket ` +
          'exists before any other replicates to it',
      );
  }
  return {
    regions,
    primaryRegion,
    ...(account === undefined ? {} : { account }),
    newRegions,
    ...withDomain(readDomain(node, regions)),
  };
};

/** The stack of `region` in a multi-region deployment. */
export const regionalStackName = (stage: string, region: string): string => `Helpdesk-${stage}-${region}`;

/** S3's limit on a bucket name. */
const BUCKET_NAME_MAX = 63;
/**
 * Every object of a tenant (attached documents, customer photos) is under `t/<tenant>/`
 * (shared/store/keys.ts `blobKeys`); uploads not yet attached (`staging/`) are not replicated.
 */
export const REPLICATED_PREFIX = 't/';

/**
 * One region's stack of a multi-region deployment: its names, what it creates or references, and
 * what its functions are told and granted. HelpdeskStack asks it at each of those points.
 */
export class RegionalStack {
  readonly regions: readonly string[];
  readonly primaryRegion: string;
  /** Every region but this one. */
  readonly others: readonly string[];
  readonly tableName: string;
  readonly secretName: string;
  readonly domain?: DomainContext;
  /** Set by attachments() when the bucket replicates: its role and destinations (infra/nag-suppressions.ts). */
  replication?: { readonly role: Role; readonly destinations: readonly IBucket[] };
  /** Set by attachments(): the other regions' buckets, which blob routes are granted on too. */
  otherBuckets: IBucket[] = [];
  readonly #newRegions: readonly string[];

  constructor(
    context: RegionsContext,
    readonly stage: string,
    readonly region: string,
  ) {
    if (!context.regions.includes(region)) throw new Error(`${region} is not one of ${context.regions}`);
    this.regions = context.regions;
    this.primaryRegion = context.primaryRegion;
    this.others = context.regions.filter((r) => r !== region);
    this.#newRegions = context.newRegions;
    if (context.domain) this.domain = context.domain;
    this.tableName = `helpdesk-${stage}`;
    // Not ending in a dash and six characters, so the partial ARN of fromSecretNameV2 is unambiguous.
    this.secretName = `helpdesk/${stage}/cursor-key`;
    // Checked with a 12-digit account whatever the account is (a token until deployment).
    const longest = this.bucketNameWith(stage, '123456789012', longestOf(context.regions));
    if (longest.length > BUCKET_NAME_MAX) {
      throw new Error(
        `Context 'stage' (${stage}) is too long for the attachments buckets' names with these regions: ` +
          `${longest} has ${longest.length} characters, S3 allows ${BUCKET_NAME_MAX}`,
      );
    }
  }

  get isPrimary(): boolean {
    return this.region === this.primaryRegion;
  }

  private bucketNameWith(stage: string, account: string, region: string): string {
    return `helpdesk-${stage.toLowerCase()}-attachments-${account}-${region}`;
  }

  /** The attachments bucket of `region`, named for this stack's account. */
  bucketName(scope: Construct, region: string): string {
    return this.bucketNameWith(this.stage, Stack.of(scope).account, region);
  }

  /** The table's ARN in `region` (its replica there). */
  tableArnIn(scope: Construct, region: string): string {
    return Stack.of(scope).formatArn({
      service: 'dynamodb',
      region,
      resource: 'table',
      resourceName: this.tableName,
    });
  }

  /** The other regions' replicas: route functions are granted on them as on their own (homed writes). */
  replicaTableArns(scope: Construct): string[] {
    return this.others.map((r) => this.tableArnIn(scope, r));
  }

  /**
   * The primary creates the global table under its fixed name with a replica in every other region
   * (each inherits point-in-time recovery and deletion protection; the stream is on in every replica).
   * Another region references its own replica by name, with that replica's stream (replicaStream).
   */
  table(scope: Construct, props: TablePropsV2, logs: FunctionLogs): ITableV2 {
    if (this.isPrimary) {
      return new TableV2(scope, 'Table', {
        ...props,
        tableName: this.tableName,
        replicas: this.others.map((region) => ({ region })),
      });
    }
    return TableV2.fromTableAttributes(scope, 'Table', {
      tableName: this.tableName,
      tableStreamArn: this.replicaStream(scope, logs),
      grantIndexPermissions: true,
    });
  }

  /**
   * The stream ARN of this region's replica. It exists only once the primary's stack has added the
   * replica, carries a label chosen then, and no CloudFormation attribute names it outside the
   * primary region (TableV2.replica(region).tableStreamArn is a `stream/*` pattern, fine for an IAM
   * grant but not for an event source mapping). So a custom resource reads it with DescribeTable in
   * this region when the stack is created (and again if this resource changes). A global table's
   * stream cannot be disabled while it has replicas, so the label does not change under it.
   */
  private replicaStream(scope: Construct, logs: FunctionLogs): string {
    const describe = {
      service: 'DynamoDB',
      action: 'describeTable',
      parameters: { TableName: this.tableName },
      physicalResourceId: PhysicalResourceId.of(`${this.tableName}@${this.region}`),
      // Only the ARN: a whole description with ten indexes could pass CloudFormation's 4 KB response limit.
      outputPaths: ['Table.LatestStreamArn'],
    };
    // Our own role rather than the provider's default (AWSLambdaBasicExecutionRole, which may
    // write every log group): its own log group, and DescribeTable on this region's replica only.
    const logGroup = new LogGroup(scope, 'TableReplicaStreamLogs', {
      retention: logs.logRetention,
      removalPolicy: logs.removalPolicy,
    });
    const role = new Role(scope, 'TableReplicaStreamRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });
    logGroup.grantWrite(role);
    const stream = new AwsCustomResource(scope, 'TableReplicaStream', {
      onCreate: describe,
      onUpdate: describe,
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.tableArnIn(scope, this.region)] }),
      role,
      // The runtime's SDK has DescribeTable: no npm install at deployment.
      installLatestAwsSdk: false,
      logGroup,
    });
    return stream.getResponseField('Table.LatestStreamArn');
  }

  /**
   * Created once, in the primary, under its fixed name and replicated to every other region;
   * another region references its replica by that name and reads it there. The rotation schedule
   * (HelpdeskStack, cursorKeyRotationDays) belongs to the primary's secret only: Secrets Manager
   * copies each new version, with its staging labels, to the replicas.
   */
  cursorSecret(scope: Construct, props: SecretProps): ISecret {
    if (this.isPrimary) {
      return new Secret(scope, 'CursorSecret', {
        ...props,
        secretName: this.secretName,
        replicaRegions: this.others.map((region) => ({ region })),
      });
    }
    return Secret.fromSecretNameV2(scope, 'CursorSecret', this.secretName);
  }

  /**
   * Names this region's attachments bucket (`bucket` is versioned: AttachmentsBucket) and makes it
   * replicate attached documents and photos (`t/…`), with their deletions (delete markers), to
   * every other region's bucket, except those of `newRegions` (their buckets do not exist yet).
   * Returns the other regions' buckets, on which the blob routes are granted too.
   */
  attachments(scope: Construct, bucket: IBucket): IBucket[] {
    const cfn = bucket.node.defaultChild as CfnBucket;
    cfn.bucketName = this.bucketName(scope, this.region);
    const others = this.others.map((region) => ({
      region,
      bucket: Bucket.fromBucketName(scope, `AttachmentsBucket-${region}`, this.bucketName(scope, region)),
    }));
    this.otherBuckets = others.map((o) => o.bucket);
    const destinations = others.filter(({ region }) => !this.#newRegions.includes(region));
    if (destinations.length === 0) return this.otherBuckets;

    // One role per source bucket, with the documented minimum: read this bucket's replication
    // configuration and the versions to replicate, write replicas (and delete markers) to the others.
    const role = new Role(scope, 'AttachmentsReplicationRole', {
      assumedBy: new ServicePrincipal('s3.amazonaws.com'),
      description: `Replicates ${this.bucketName(scope, this.region)} to the other regions' attachments buckets`,
    });
    role.addToPolicy(
      new PolicyStatement({
        actions: ['s3:GetReplicationConfiguration', 's3:ListBucket'],
        resources: [bucket.bucketArn],
      }),
    );
    role.addToPolicy(
      new PolicyStatement({
        actions: [
          's3:GetObjectVersionAcl',
          's3:GetObjectVersionForReplication',
          's3:GetObjectVersionTagging',
        ],
        resources: [bucket.arnForObjects(`${REPLICATED_PREFIX}*`)],
      }),
    );
    role.addToPolicy(
      new PolicyStatement({
        actions: ['s3:ReplicateDelete', 's3:ReplicateObject', 's3:ReplicateTags'],
        resources: destinations.map((d) => d.bucket.arnForObjects(`${REPLICATED_PREFIX}*`)),
      }),
    );
    cfn.replicationConfiguration = {
      role: role.roleArn,
      // Filter and Priority make this a V2 configuration, the one that allows several destinations.
      rules: destinations.map(({ region, bucket: destination }, i) => ({
        id: `to-${region}`,
        status: 'Enabled',
        priority: i + 1,
        filter: { prefix: REPLICATED_PREFIX },
        deleteMarkerReplication: { status: 'Enabled' },
        destination: { bucket: destination.bucketArn },
      })),
    };
    this.replication = { role, destinations: destinations.map((d) => d.bucket) };
    return this.otherBuckets;
  }

  /** What every function is told: the regions, and the custom domain's URL if there is one. */
  environment(): Record<string, string> {
    return {
      REGIONS: this.regions.join(','),
      PRIMARY_REGION: this.primaryRegion,
      ...(this.publicBaseUrl ? { PUBLIC_BASE_URL: this.publicBaseUrl } : {}),
    };
  }

  /** What blob routes are told besides: each region's bucket (shared/blobs/s3.ts). */
  bucketsEnvironment(scope: Construct): Record<string, string> {
    return { BUCKETS: this.regions.map((r) => `${r}=${this.bucketName(scope, r)}`).join(',') };
  }

  /** `https://<domainName>` with a custom domain; undefined without. */
  get publicBaseUrl(): string | undefined {
    return this.domain && `https://${this.domain.name}`;
  }

  /**
   * With a custom domain: the regional API Gateway domain name with this region's certificate, the
   * API's `$default` stage mapped to it, and this region's latency record in the hosted zone. Route
   * 53 answers each resolver with the region of lowest latency from it among the records.
   */
  addDomain(scope: Construct, api: HttpApi, stage: HttpStage): DomainName | undefined {
    const { domain } = this;
    if (!domain) return undefined;
    const certificateArn = domain.certificateArns[this.region] as string;
    const domainName = new DomainName(scope, 'ApiDomain', {
      domainName: domain.name,
      certificate: Certificate.fromCertificateArn(scope, 'ApiCertificate', certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    new ApiMapping(scope, 'ApiDomainMapping', { api, domainName, stage });
    new ARecord(scope, 'ApiDomainRecord', {
      zone: HostedZone.fromHostedZoneAttributes(scope, 'HostedZone', {
        hostedZoneId: domain.hostedZoneId,
        zoneName: domain.hostedZoneName,
      }),
      recordName: domain.name,
      target: RecordTarget.fromAlias(
        new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId),
      ),
      region: this.region,
      setIdentifier: this.region,
    });
    return domainName;
  }
}

export interface FunctionLogs {
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

const longestOf = (regions: readonly string[]): string =>
  regions.reduce((a, b) => (b.length > a.length ? b : a), '');
