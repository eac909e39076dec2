import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { HelpdeskStack } from './helpdesk-stack';
import { acknowledgeNagFindings } from './nag-suppressions';
import { readStackContext } from './stack-context';

/**
 * Builds `Helpdesk-<stage>` from the app's context; the tests call it with their own App.
 * cdk-nag's AWS Solutions pack runs at synthesis (cdk-nag 3 is a policy-validation plugin, not an
 * aspect): any finding not acknowledged in nag-suppressions.ts fails `cdk synth` and the tests.
 */
export const buildHelpdeskStack = (app: App): HelpdeskStack => {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  const settings = readStackContext(app.node);
  const stack = new HelpdeskStack(app, `Helpdesk-${settings.stage}`, {
    settings,
    description: `Deskero-compatible help-desk API (${settings.stage})`,
  });
  Tags.of(stack).add('service', 'helpdesk');
  Tags.of(stack).add('stage', settings.stage);
  acknowledgeNagFindings(stack);
  return stack;
};

// Importing this module (tests) must not build a second App with real bundling.
const entry = process.argv[1];
const isEntryPoint =
  entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
if (isEntryPoint) buildHelpdeskStack(new App());
