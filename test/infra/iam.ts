/**
 * A role's IAM statements as a synthesized template grants them: the inline policies in the role
 * (`Policies`: ApiFunction's own grants, infra/api-function.ts) and every AWS::IAM::Policy
 * attached to it (its `DefaultPolicy`: what CDK grants on its own, e.g. an event source's reads).
 * Tests read permissions through these, so they hold wherever a statement lands.
 */

type Json = Record<string, unknown>;
/** A template's `Resources`, as `Template.toJSON()` gives them. */
export type Resources = Record<string, { Type: string; Properties?: Json }>;

interface PolicyDocument {
  Statement: Json[];
}

/** The logical id of a function's role (its `Role`, a `Fn::GetAtt` of the role's ARN). */
export const roleIdOf = (resources: Resources, functionId: string): string => {
  const fn = resources[functionId];
  if (!fn) throw new Error(`no resource ${functionId}`);
  const role = (fn.Properties?.Role as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt'];
  if (!role) throw new Error(`${functionId} has no role of this template`);
  return role[0];
};

/**
 * Every identity policy of the template, with the roles it applies to: each role's inline
 * policies, then each AWS::IAM::Policy (`id` is the role's, or the policy resource's).
 */
export const identityPolicies = (
  resources: Resources,
): { id: string; roles: string[]; document: PolicyDocument }[] => [
  ...Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::IAM::Role')
    .flatMap(([id, r]) =>
      ((r.Properties?.Policies ?? []) as { PolicyDocument: PolicyDocument }[]).map((p) => ({
        id,
        roles: [id],
        document: p.PolicyDocument,
      })),
    ),
  ...Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::IAM::Policy')
    .map(([id, r]) => ({
      id,
      roles: ((r.Properties?.Roles ?? []) as { Ref?: string }[]).flatMap((role) => role.Ref ?? []),
      document: r.Properties?.PolicyDocument as PolicyDocument,
    })),
];

/** Every statement granted to a role: its inline policies' and its attached policies'. */
export const roleStatements = (resources: Resources, roleId: string): Json[] =>
  identityPolicies(resources)
    .filter((p) => p.roles.includes(roleId))
    .flatMap((p) => p.document.Statement);

/** Every statement granted to a function's role. */
export const functionStatements = (resources: Resources, functionId: string): Json[] =>
  roleStatements(resources, roleIdOf(resources, functionId));
