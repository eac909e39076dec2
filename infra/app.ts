import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, Tags } from 'aws-cdk-lib';
import { HelpdeskStack } from './helpdesk-stack';
import { readStackContext } from './stack-context';

/** Builds `Helpdesk-<stage>` from the app's context; the tests call it with their own App. */
export const buildHelpdeskStack = (app: App): HelpdeskStack => {
  const settings = readStackContext(app.node);
  const stack = new HelpdeskStack(app, `Helpdesk-${settings.stage}`, {
    settings,
    description: `Deskero-compatible help-desk API (${settings.stage})`,
  });
  Tags.of(stack).add('service', 'helpdesk');
  Tags.of(stack).add('stage', settings.stage);
  return stack;
};

// Importing this module (tests) must not build a second App with real bundling.
const entry = process.argv[1];
const isEntryPoint =
  entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
if (isEntryPoint) buildHelpdeskStack(new App());
