import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildHelpdeskStack } from './infra/app';
for (let i = 0; i < 4; i++) {
  const t = Date.now();
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], indexMigrationStep: String(i) } });
  Template.fromStack(buildHelpdeskStack(app));
  console.log(i, Date.now() - t);
}
