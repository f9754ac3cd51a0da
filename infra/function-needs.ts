/**
 * What each Lambda function may touch, derived from what its module composes
 * (`functions/<handler>.ts` imports `shared/runtime/groups/<group>.ts`): a function that does not
 * compose a group cannot use that group's service, so its role does not need its rights
 * (docs/decisions/0051). Functions with the same needs share one role; see function-roles.ts.
 */
import { readFileSync } from 'node:fs';
import { handlerEntry } from './paths.ts';

/** A right a function's role carries (each maps to IAM statements in constructs/function-roles.ts). */
export type Need =
  /** GetItem, Query, BatchGetItem, ConditionCheckItem on the table and its indexes (every function). */
  | 'table-read'
  /** PutItem, UpdateItem, DeleteItem, BatchWriteItem on every key. */
  | 'table-write'
  /** PutItem on the audit partitions only (dynamodb:LeadingKeys AUDIT#…): functions that change nothing else. */
  | 'audit-write'
  /** kms:Encrypt/Decrypt outside DynamoDB: secret values and data-source passwords (group secret-values). */
  | 'secret-values'
  /** The own IdP's key document in Secrets Manager (group own-idp). */
  | 'idp-keys'
  /** EventBridge Scheduler, iam:PassRole of the scheduler role, states:StartExecution (group scheduling). */
  | 'scheduling'
  /** ses:SendEmail (groups notifications and invitation-mail). */
  | 'send-email'
  /** lambda:InvokeFunction on the script sandbox (group script-sandbox). */
  | 'script-sandbox'
  /** Runs actions: its engines reach data sources (VPC mode, connector rights, uploaded files read). */
  | 'run-actions'
  /** Keeps and deletes uploaded files in the blob bucket. */
  | 'files-write'
  /**
   * Large execution arguments and results in the payload bucket, under `executions/` (group
   * execution-payloads, decision 0056): put and get with 'run-actions', get (to presign links) without.
   */
  | 'execution-payloads';

/** The groups a handler module composes, read from its imports. */
export function composedGroups(handler: string): string[] {
  const source = readFileSync(handlerEntry(handler), 'utf8');
  return [...new Set([...source.matchAll(/runtime\/groups\/([a-z-]+)\.ts/g)].map((m) => m[1]!))].sort();
}

/**
 * Functions whose own use cases only read: besides reading they may only append audit entries
 * (every request to an audited route records one). Any other write from them is refused by IAM.
 */
export const readOnlyHandlers: readonly string[] = [
  'health',
  'who-am-i',
  'openapi',
  'connector-kinds',
  'not-found',
  'audit-log',
  'get-execution',
  // Answers links to stored payloads: reads the execution, signs a GET for its object.
  'execution-payloads',
  // Reads the audit chain heads; writes only to the anchor bucket (its own role, decision 0182).
  'anchor-audit-chain',
];

/** Handlers that keep and delete uploaded files (decision 0033). */
export const fileWriters: readonly string[] = ['data-sources', 'file-versions', 'upload-protoset'];

const needsByGroup: Record<string, Need[]> = {
  'secret-values': ['secret-values'],
  'own-idp': ['idp-keys'],
  scheduling: ['scheduling'],
  notifications: ['send-email'],
  'invitation-mail': ['send-email'],
  'script-sandbox': ['script-sandbox'],
  'action-engines': ['run-actions'],
  'execution-payloads': ['execution-payloads'],
};

export function needsOf(handler: string): Need[] {
  const needs = new Set<Need>(['table-read']);
  needs.add(readOnlyHandlers.includes(handler) ? 'audit-write' : 'table-write');
  for (const group of composedGroups(handler)) for (const need of needsByGroup[group] ?? []) needs.add(need);
  if (fileWriters.includes(handler)) needs.add('files-write');
  return [...needs].sort();
}

/** The functions that run actions: only these are placed in the VPC and get connector rights. */
export const runsActions = (handler: string) => needsOf(handler).includes('run-actions');
