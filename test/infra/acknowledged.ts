import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag and CloudFormation findings the stacks acknowledge (infra/nag-suppressions.ts), with
 * the construct and the reason: what test/infra/nag.test.ts and operations.test.ts hold to the
 * raw findings. Left out: the one CDK acknowledges itself on a stack whose availability zones were
 * looked up (W3010; the search index's VPC, whose template names none: Fn::GetAZs).
 */
export const acknowledgedIn = (scopes: readonly IConstruct[]) =>
  scopes
    .flatMap((scope) =>
      scope.node.findAll().flatMap((c) =>
        c.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) => Object.entries(m.data as Record<string, string>))
          .map(([id, reason]) => ({ rule: id.replace(/^annotation::/i, ''), path: c.node.path, reason })),
      ),
    )
    .filter((a) => a.rule !== 'CloudFormation-Validate::W3010');
