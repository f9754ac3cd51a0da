/**
 * The CDK app: `npx cdk synth|deploy -c stage=<stage>` makes the stack `Dogu-<stage>`.
 * See docs/deploy.md for the context values.
 */
import { App } from 'aws-cdk-lib';
import { DoguStack } from './dogu-stack.ts';

const defaultStage = 'development';
const defaultRegion = 'ap-northeast-1';

const app = new App();

function contextString(name: string): string | undefined {
  const value: unknown = app.node.tryGetContext(name);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

function contextPositiveInteger(name: string): number | undefined {
  const text = contextString(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`Context '${name}' must be a positive whole number, not '${text}'.`);
  }
  return value;
}

const stage = contextString('stage') ?? defaultStage;

new DoguStack(app, `Dogu-${stage}`, {
  stage,
  loginTokenSeconds: contextPositiveInteger('loginTokenSeconds'),
  functionRoleKinds: (contextString('functionRoleKinds') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean),
  env: {
    // The account of the credentials the CDK CLI runs with; unset (no credentials) synthesizes
    // an account-agnostic template, which is enough for `cdk synth`.
    account: process.env.CDK_DEFAULT_ACCOUNT,
    // Not CDK_DEFAULT_REGION: the CLI sets it to us-east-1 whenever no region is configured, so
    // a laptop without a region would silently deploy a second Dogu there. Choose explicitly.
    region:
      contextString('region') ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? defaultRegion,
  },
});
