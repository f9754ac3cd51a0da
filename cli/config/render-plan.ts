/**
 * A plan as Markdown, readable in a terminal and as a pull-request comment. Values of variables and
 * definitions are shown; secret and password values never are (the plan does not hold them: only
 * the names of the environment variables they come from).
 */
import type { FieldChange } from './diff.ts';
import { lineDiff } from './line-diff.ts';
import { formatPath } from './path.ts';
import type { Change, Plan, PlannedResource, ResourceKind, WriteOnlyValue } from './plan.ts';

const sections: { kind: ResourceKind; title: string }[] = [
  { kind: 'variable', title: 'Variables' },
  { kind: 'secret', title: 'Secrets' },
  { kind: 'masterData', title: 'Master data lists' },
  { kind: 'dataSource', title: 'Data sources' },
  { kind: 'action', title: 'Actions' },
  { kind: 'member', title: 'Members' },
  { kind: 'userGroup', title: 'User groups' },
  { kind: 'serviceAccount', title: 'Service accounts' },
  { kind: 'trustPolicy', title: 'Trust policies' },
  { kind: 'actionGroup', title: 'Action groups' },
  { kind: 'view', title: 'Views' },
  { kind: 'viewPublication', title: 'View publications' },
  { kind: 'publication', title: 'Publications' },
  { kind: 'cronJob', title: 'Cron jobs' },
  { kind: 'notificationPolicy', title: 'Notification network policy' },
  { kind: 'notificationTarget', title: 'Notification targets' },
  { kind: 'notificationRule', title: 'Notification rules' },
];

export const kindLabel: Record<ResourceKind, string> = {
  variable: 'variable',
  secret: 'secret',
  masterData: 'master data list',
  dataSource: 'data source',
  action: 'action',
  member: 'member',
  userGroup: 'user group',
  actionGroup: 'action group',
  view: 'view',
  viewPublication: 'view publication',
  publication: 'publication',
  serviceAccount: 'service account',
  trustPolicy: 'trust policy',
  cronJob: 'cron job',
  notificationPolicy: 'notification setting',
  notificationTarget: 'notification target',
  notificationRule: 'notification rule',
};

const marks: Record<Change, string> = { create: '+ create', update: '~ update', unchanged: '= unchanged' };
/** Values longer than this are named, not shown. */
const maxShownLength = 60;

export function renderPlan(plan: Plan, options: { dryRun: boolean }): string {
  const lines = [`## Dogu plan for project \`${plan.projectId}\``, '', summary(plan), ''];
  for (const { kind, title } of sections) {
    const resources = plan.resources.filter((r) => r.kind === kind);
    if (resources.length === 0) continue;
    lines.push(`### ${title}`, '', ...resources.flatMap(resourceLines), '');
  }
  if (plan.notInFile.length > 0) {
    lines.push('### Not in the file (left as they are)', '');
    lines.push(...plan.notInFile.map((item) => `- ${kindLabel[item.kind]} ${code(item.id)}`), '');
  }
  const missing = plan.resources.flatMap((r) =>
    r.writeOnly.filter((w) => w.status === 'missing').map((w) => ({ r, w })),
  );
  if (missing.length > 0 || plan.problems.length > 0) {
    lines.push('### Cannot be applied yet', '');
    for (const { r, w } of missing) {
      const where = w.path.length === 0 ? '' : ` (${code(formatPath(w.path))})`;
      lines.push(
        `- ${code(`$${w.envVar}`)} is not set, and ${kindLabel[r.kind]} ${code(r.id)}${where} has no value to keep`,
      );
    }
    for (const problem of plan.problems)
      lines.push(`- ${code(formatPath(problem.path))}: ${problem.message}`);
    lines.push('');
  }
  lines.push(options.dryRun ? '_Dry run: nothing was changed._' : '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function summary(plan: Plan): string {
  const count = (change: Change) => plan.resources.filter((r) => r.change === change).length;
  const counts = `**${count('create')} to create, ${count('update')} to update, ${count('unchanged')} unchanged.**`;
  const outside = plan.notInFile.length;
  if (outside === 0) return `${counts} Apply never deletes.`;
  const more = outside === 1 ? '1 more in the project is' : `${outside} more in the project are`;
  return `${counts} Apply never deletes: ${more} not in the file and left as ${outside === 1 ? 'it is' : 'they are'}.`;
}

function resourceLines(resource: PlannedResource): string[] {
  const version =
    resource.kind === 'action' && resource.change === 'update'
      ? ` (version ${resource.version} → ${resource.version! + 1})`
      : '';
  const head = `- ${code(marks[resource.change])} ${code(resource.id)}${version}`;
  // One value each: the variable's, the member's role, the published version, the setting.
  if (['variable', 'member', 'publication', 'notificationPolicy'].includes(resource.kind))
    return [head + variableDetail(resource)];
  if (resource.kind === 'secret') return [`${head} ${writeOnlyDetail(resource.writeOnly[0]!)}`];
  return [
    head,
    // A new resource is new as a whole; its fields are in the file.
    ...resource.fields.flatMap((change) => fieldLines(change).map((line) => `  ${line}`)),
    ...resource.writeOnly.map((w) => `  - ${code(formatPath(w.path))} ${writeOnlyDetail(w)}`),
    ...(resource.warnings ?? []).map((warning) => `  - ⚠ ${warning}`),
  ];
}

function variableDetail(resource: PlannedResource): string {
  const change = resource.fields[0];
  if (change?.kind === 'added') return short(change.after) ? `: ${code(show(change.after))}` : '';
  if (change?.kind === 'changed') {
    return short(change.before) && short(change.after)
      ? `: ${code(`${show(change.before)} → ${show(change.after)}`)}`
      : ' (value changed)';
  }
  return '';
}

function writeOnlyDetail(value: WriteOnlyValue): string {
  const variable = code(`$${value.envVar}`);
  if (value.status === 'set') return `set from ${variable} (write-only: sent on every apply)`;
  if (value.status === 'kept') return `kept: ${variable} is not set`;
  return `⚠ ${variable} is not set`;
}

/** One list item per changed field; multi-line texts (SQL) with the lines that changed. */
function fieldLines(change: FieldChange): string[] {
  const path = formatPath(change.path);
  if (change.kind === 'added') {
    return short(change.after)
      ? [`- ${code(`${path}: (not set) → ${show(change.after)}`)}`]
      : [`- ${code(path)} added`];
  }
  if (change.kind === 'removed') {
    return short(change.before)
      ? [`- ${code(`${path}: ${show(change.before)} → (not set)`)}`]
      : [`- ${code(path)} removed`];
  }
  if (short(change.before) && short(change.after)) {
    return [`- ${code(`${path}: ${show(change.before)} → ${show(change.after)}`)}`];
  }
  if (typeof change.before === 'string' && typeof change.after === 'string') {
    const fence = '`'.repeat(Math.max(3, longestRun(`${change.before}\n${change.after}`, '`') + 1));
    return [
      `- ${code(path)} changed:`,
      `  ${fence}diff`,
      ...lineDiff(change.before, change.after).map((l) => `  ${l}`),
      `  ${fence}`,
    ];
  }
  return [`- ${code(path)} changed`];
}

const short = (value: unknown) =>
  value === null ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  (typeof value === 'string' && value.length <= maxShownLength && !value.includes('\n'));

const show = (value: unknown) => JSON.stringify(value);

/** A Markdown code span that survives backticks in the text. */
export function code(text: string): string {
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
