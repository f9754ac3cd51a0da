/**
 * The cloud rights a data-source kind names (ConnectorDefinition.cloudPermissions), granted only to
 * the functions that run actions, and only for the kinds the operator lets run with the functions'
 * own role (context `functionRoleKinds`, e.g. "athena"): by default a data source brings its own
 * keys and the functions get no Athena, Glue or S3 rights at all.
 */
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { connectors } from '../shared/connectors/index.ts';

export function connectorPermissions(kinds: readonly string[]): string[] {
  const unknown = kinds.filter((kind) => !connectors.some((c) => c.kind === kind));
  if (unknown.length > 0) {
    throw new Error(`functionRoleKinds names unknown data-source kinds: ${unknown.join(', ')}.`);
  }
  return [
    ...new Set(connectors.filter((c) => kinds.includes(c.kind)).flatMap((c) => c.cloudPermissions)),
  ].sort();
}

export function grantConnectorPermissions(
  actionRunners: Iterable<IFunction>,
  kinds: readonly string[],
): void {
  const actions = connectorPermissions(kinds);
  if (actions.length === 0) return;
  for (const fn of actionRunners) {
    // Data sources are configured at run time (their buckets, workgroups and tables are not known here).
    fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions, resources: ['*'] }));
  }
}
