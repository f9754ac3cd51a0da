/** What apply tells the person running it: one line per saved resource, and why and where it stopped. */
import type { AppliedStep, ApplyError } from './apply.ts';
import { ProblemError } from './management-api.ts';
import { formatPath, type Path, pathOfPointer } from './path.ts';
import type { WriteStep } from './plan.ts';
import { kindLabel } from './render-plan.ts';

const name = (step: WriteStep) => `${kindLabel[step.resource.kind]} ${step.resource.id}`;
const verb = (created: boolean) => (created ? 'created' : 'updated');

export function appliedLine({ step, created, saved }: AppliedStep): string {
  const version = typeof saved.version === 'number' ? ` (version ${saved.version})` : '';
  const note = step.note ? ` (${step.note})` : '';
  return `✓ ${verb(created)} ${name(step)}${version}${note}`;
}

/**
 * The failed request with the resource it was for and the place in the file, the API's field
 * errors at their places in the file, and what was and was not applied.
 */
export function applyFailureText(error: ApplyError, placeOf: (path: Path) => string): string {
  const { failed } = error;
  const base = failed.resource.filePath;
  const lines = [
    `Could not ${failed.resource.change} ${name(failed)} (${formatPath(base)}, ${placeOf(base)}): ${error.cause.message}`,
  ];
  if (error.cause instanceof ProblemError) {
    for (const field of error.cause.problem?.errors ?? []) {
      // Variables, secrets and publications are sent as {"value"|"version": …}; their field errors point at the entry itself.
      const path = ['variable', 'secret', 'publication', 'viewPublication'].includes(failed.resource.kind)
        ? base
        : [...base, ...(failed.filePathOfPointer?.(field.pointer) ?? pathOfPointer(field.pointer))];
      lines.push(`  ${placeOf(path)}: ${formatPath(path)}: ${field.detail}`);
    }
  }
  if (error.cause.status === 409)
    lines.push('Run apply again to see the difference against what is there now.');
  const applied = error.applied.map(({ step, created }) => `${name(step)} (${verb(created)})`);
  const notApplied = [...new Set(error.notApplied.map(name))];
  lines.push(`Already applied: ${applied.length > 0 ? applied.join(', ') : 'nothing'}.`);
  lines.push(`Not applied: ${notApplied.join(', ')}.`);
  lines.push(
    'Each change is saved whole or not at all, so the file can be applied again once this is fixed.',
  );
  return lines.join('\n');
}
