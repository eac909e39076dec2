import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { BLOB_AREAS, type BlobArea, dynamoActions, routes } from '../shared/routes';
import type { ApiFunction } from './api-function';
import type { HelpdeskStack } from './helpdesk-stack';
import { IMPORT_WORKER_BLOBS } from './import-pipeline';
import { REPLICATED_PREFIX } from './regions';

/**
 * Every cdk-nag (AwsSolutions) finding this stack accepts, each on the narrowest construct and,
 * for IAM5, the exact wildcard. cdk-nag 3 matches acknowledgments by exact id; a finding that is
 * not listed here fails `cdk synth` and test/infra/nag.test.ts.
 *
 * Fixed rather than acknowledged: IAM4 (own role, logs only on the function's group), APIG1
 * (stage access logs), S1 (bucket access logs), S2/S10 (public access blocked, TLS only), SQS2/SQS4
 * (SQS-managed encryption, TLS only), SQS3 on the delivery queue (its dead-letter queue).
 */

const REASONS = {
  randomPassword:
    "CDK's rotation schedule grants secretsmanager:GetRandomPassword, which has no resource to scope to and reads no secret; every action on a secret is on the cursor secret alone.",
  authInFunction:
    'Every route authenticates in its function (Bearer token + clientId, Basic on /oauth/token) per the Deskero contract; an authorizer would add a round trip.',
  publicRoutes:
    "Public routes (auth 'none': the OpenAPI document, the API reference and its renderer) are unauthenticated by design: they describe the API, reach no tenant data and have no table or bucket access.",
  fallbackRoute:
    "The $default route answers what no route matches (GET / and /docs/: a redirect to the docs; anything else: a 404 problem) from the docs page's function: no tenant data, no table or bucket access.",
  tableIndexes:
    'Queries of this table need its GSIs; index/* names only indexes of this one table, all of them the data layer, and only for the actions the route declares on indexes (shared/routes.ts).',
  failureDestination:
    'This queue is the dead-letter destination itself: the on-failure destination of a stream reader (the webhook fan-out, the cascade worker, the search indexer) for stream records it gave up on, alarmed on when it holds a message; a queue behind it would only move the problem.',
  searchVpc:
    "The search index's VPC holds the Aurora cluster alone, in isolated subnets (no NAT, no internet gateway, no instance): the functions reach the database through the RDS Data API, never through this network, so there is no traffic of ours to log.",
  dataApiAuth:
    "The functions reach the search cluster only through the RDS Data API, which authenticates each call with IAM (rds-data:ExecuteStatement on this cluster, in the function's own policy) and then uses the cluster secret; the Data API does not support IAM database authentication, and no network path to the database exists (isolated subnets).",
  searchSecretRotation:
    "The search cluster's credentials are read only by the RDS Data API from Secrets Manager (granted to the search functions alone) and never leave AWS; the cluster has no network path from outside (isolated subnets). A rotation function would need a Secrets Manager endpoint in the VPC (an interface endpoint per AZ: a standing cost for an index that is rebuilt from the table).",
  searchDeletion:
    "Deletion protection follows the stack's context (deletionProtection: off for this stage). The index is a read model: rebuilt from the table by `helpdesk search reindex`, and its removal takes a snapshot.",
  bucketObjects:
    'Object keys carry the tenant and the record ids (t/<tenant>/ticket/<ticket>/<document>, t/<tenant>/customer-photo/<photo>, staging/<tenant>/<upload>, exports/<tenant>/<customer>/<job>.json, imports/<tenant>/<job>.ndjson): tenants are separated in the handler, so the grant is on one area of this one bucket, with only the object actions the route declares for it (shared/routes.ts BLOB_AREAS).',
  replicaIndexes:
    "Several regions: a tenant's writes, and reads asked of its home, run against its home region's replica of the one global table (docs/regions.md), so the route's declared index actions are granted on index/* of that table in each region of the deployment, nothing else.",
  otherBucketObjects:
    "Several regions: a tenant's files live in its home region's attachments bucket whichever region serves the request (shared/blobs/s3.ts, docs/regions.md), so the route's declared object actions on its declared areas are granted on each region's attachments bucket of this deployment, nothing else.",
  replication:
    "S3 replication of attached documents and photos (t/...) between the deployment's attachments buckets: read the versions to replicate under t/ of this bucket, write replicas and delete markers under t/ of the other regions' buckets. Object keys cannot be known in advance; these are the documented minimum replication actions.",
} as const;

const ack = (scope: IConstruct, rule: string, reason: string): void =>
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });

/**
 * Where cdk-nag reports findings on the function's own grants: they are an inline policy of its
 * role (ApiFunction's `inlineGrantee`), so on the role's resource (`<id>Role/Resource`).
 */
const grantsOf = (fn: ApiFunction): IConstruct => {
  const role = fn.role?.node.defaultChild;
  if (!role) throw new Error(`${fn.node.path} has no role to acknowledge on`);
  return role;
};

/** The role's `DefaultPolicy`, where what CDK grants on its own lands (a secret's rotation). */
const defaultPolicyOf = (fn: ApiFunction): IConstruct => {
  const policy = fn.role?.node.tryFindChild('DefaultPolicy');
  if (!policy) throw new Error(`${fn.node.path} has no default policy to acknowledge on`);
  return policy;
};

/**
 * A value as cdk-nag names it in a finding: its CloudFormation form flattened, `<Logical.Attr>` for
 * an attribute, `<Name>` for a reference, joins joined (what cdk-nag's flattenCfnReference does).
 */
const nagName = (scope: IConstruct, value: string): string => {
  const visit = (node: unknown): string => {
    if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/}/g, '>');
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['Fn::Join'])) {
      const [delimiter, items] = o['Fn::Join'] as [string, unknown[]];
      return items.map(visit).join(delimiter);
    }
    if (Array.isArray(o['Fn::GetAtt'])) {
      const [resource, attribute] = o['Fn::GetAtt'] as [unknown, unknown];
      return `<${visit(resource)}.${visit(attribute)}>`;
    }
    if (o.Ref !== undefined) return `<${visit(o.Ref)}>`;
    return JSON.stringify(node);
  };
  return visit(Stack.of(scope).resolve(value));
};

export const acknowledgeNagFindings = (stack: HelpdeskStack): void => {
  // cdk-nag names a resource in a finding by its flattened reference, e.g. `<TableCD117FA1.Arn>`;
  // an adopted table (context existingTableName) by its ARN, literal here (from the stream ARN);
  // an adopted bucket (existingBucketName) by `arn:<AWS::Partition>:s3:::<name>`; several regions,
  // a referenced replica by `arn:<AWS::Partition>:dynamodb:eu-west-1:<AWS::AccountId>:table/helpdesk-dev`.
  const tableArn = nagName(stack, stack.table.tableArn);
  const bucketArn = nagName(stack, stack.attachments.bucket.bucketArn);
  const { regional } = stack;
  const replicaArns = (regional?.replicaTableArns(stack) ?? []).map((arn) => nagName(stack, arn));
  const otherBucketArns = (regional?.otherBuckets ?? []).map((b) => nagName(stack, b.bucketArn));

  // The cursor secret rotates (SMG4 fixed): the rotation function's grant that names no secret.
  // Several regions: only the primary's stack holds the secret and rotates it; the others reference
  // its replica, which Secrets Manager keeps in step (no rotation function there).
  if (stack.rotatesCursorKey)
    ack(defaultPolicyOf(stack.cursorKeyRotation), 'IAM5[Resource::*]', REASONS.randomPassword);

  for (const route of routes) {
    const fn = stack.functions.get(route.operationId);
    const httpRoute = stack.routes.get(route.operationId);
    if (!fn || !httpRoute) throw new Error(`No function or route for ${route.operationId}`);
    ack(httpRoute, 'APIG4', route.auth === 'none' ? REASONS.publicRoutes : REASONS.authInFunction);
    if (route.fallback && stack.fallbackRoute) ack(stack.fallbackRoute, 'APIG4', REASONS.fallbackRoute);
    // Public routes have no grant on the table (infra/helpdesk-stack.ts), so nothing to acknowledge.
    if (route.auth === 'none') continue;

    const grants = grantsOf(fn);
    if (dynamoActions(route).some((a) => a.startsWith('index:'))) {
      ack(grants, `IAM5[Resource::${tableArn}/index/*]`, REASONS.tableIndexes);
      for (const arn of replicaArns) ack(grants, `IAM5[Resource::${arn}/index/*]`, REASONS.replicaIndexes);
    }
    const areas = Object.keys(route.blobs ?? {}).filter((k): k is BlobArea => k in BLOB_AREAS);
    for (const area of areas) {
      ack(grants, `IAM5[Resource::${bucketArn}/${BLOB_AREAS[area]}]`, REASONS.bucketObjects);
      for (const arn of otherBucketArns)
        ack(grants, `IAM5[Resource::${arn}/${BLOB_AREAS[area]}]`, REASONS.otherBucketObjects);
    }
  }

  // The webhook pipeline: its functions query the table's indexes (subscriptions and the records
  // an event's resource refers to); the delivery dead-letter queue is the delivery queue's SQS3 fix.
  const { webhooks } = stack;
  for (const fn of [webhooks.fanout, webhooks.deliver]) {
    ack(grantsOf(fn), `IAM5[Resource::${tableArn}/index/*]`, REASONS.tableIndexes);
  }
  ack(webhooks.fanoutFailures, 'SQS3', REASONS.failureDestination);

  // The cascade worker: deletes in the areas of removed records' objects, in each region's bucket,
  // and runs jobs (a customer's tickets found by their search and the trash's list, in its own
  // region's replica: it runs the cascades of the tenants homed there; an export's document); its
  // failures queue is a dead-letter destination itself.
  const cascadeGrants = grantsOf(stack.cascades.fn);
  ack(cascadeGrants, `IAM5[Resource::${tableArn}/index/*]`, REASONS.tableIndexes);
  for (const area of ['documents', 'photos', 'exports'] as const) {
    ack(cascadeGrants, `IAM5[Resource::${bucketArn}/${BLOB_AREAS[area]}]`, REASONS.bucketObjects);
    for (const arn of otherBucketArns)
      ack(cascadeGrants, `IAM5[Resource::${arn}/${BLOB_AREAS[area]}]`, REASONS.otherBucketObjects);
  }
  ack(stack.cascades.failures, 'SQS3', REASONS.failureDestination);

  // The import worker: a job's file read, and its records' documents and photos written, in the
  // declared areas of each region's bucket (infra/import-pipeline.ts IMPORT_WORKER_BLOBS).
  const importGrants = grantsOf(stack.imports.worker);
  const importAreas = Object.keys(IMPORT_WORKER_BLOBS).filter((k): k is BlobArea => k in BLOB_AREAS);
  for (const area of importAreas) {
    ack(importGrants, `IAM5[Resource::${bucketArn}/${BLOB_AREAS[area]}]`, REASONS.bucketObjects);
    for (const arn of otherBucketArns)
      ack(importGrants, `IAM5[Resource::${arn}/${BLOB_AREAS[area]}]`, REASONS.otherBucketObjects);
  }

  // The search index (infra/search.ts): its failures queue is a dead-letter destination itself.
  const { search } = stack;
  ack(search.failures, 'SQS3', REASONS.failureDestination);
  ack(search.vpc, 'VPC7', REASONS.searchVpc);
  ack(search.cluster, 'RDS6', REASONS.dataApiAuth);
  // The generated secret itself (`cluster.secret` is its attachment to the cluster).
  ack(search.cluster.node.findChild('Secret'), 'SMG4', REASONS.searchSecretRotation);
  if (!search.deletionProtection) ack(search.cluster, 'RDS10', REASONS.searchDeletion);

  // Several regions: the attachments bucket's replication role, on t/ of each bucket it names.
  if (regional?.replication) {
    const { role, destinations } = regional.replication;
    const policy = role.node.tryFindChild('DefaultPolicy');
    if (!policy) throw new Error(`${role.node.path} has no policy to acknowledge on`);
    for (const arn of [bucketArn, ...destinations.map((d) => nagName(stack, d.bucketArn))])
      ack(policy, `IAM5[Resource::${arn}/${REPLICATED_PREFIX}*]`, REASONS.replication);
  }
};
