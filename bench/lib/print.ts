/** The human-readable form of a BenchReport: one table of phases, one of checks against targets. */
import type { BenchReport, Check } from './report.ts';
import { fixed, formatTable } from './table.ts';

export function formatReport(report: BenchReport): string {
  const parts = [`== ${report.bench}: ${report.title} ==`, '', phasesTable(report), ''];
  if (report.checks.length > 0) parts.push(checksTable(report.checks), '');
  if (report.errors > 0) {
    parts.push(`INVALID RUN: ${report.errors} request(s) failed; see errorSamples in the JSON.`, '');
  }
  for (const note of report.notes) parts.push(`note: ${note}`);
  return parts.join('\n').trimEnd();
}

function phasesTable(report: BenchReport): string {
  return formatTable(
    [
      { header: 'phase' },
      { header: 'subject' },
      { header: 'conc', align: 'right' },
      { header: 'requests', align: 'right' },
      { header: 'errors', align: 'right' },
      { header: 'seconds', align: 'right' },
      { header: 'req/s', align: 'right' },
      { header: 'p50 ms', align: 'right' },
      { header: 'p90 ms', align: 'right' },
      { header: 'p99 ms', align: 'right' },
      { header: 'max ms', align: 'right' },
      { header: 'RSS MB', align: 'right' },
    ],
    report.phases.map((phase) => [
      phase.name,
      phase.subject,
      String(phase.concurrency),
      String(phase.requests),
      String(phase.errors),
      fixed(phase.elapsedMs / 1000, 2),
      fixed(phase.requestsPerSecond, 0),
      fixed(phase.latencyMs.p50, 3),
      fixed(phase.latencyMs.p90, 3),
      fixed(phase.latencyMs.p99, 3),
      fixed(phase.latencyMs.max, 3),
      phase.rssMb === undefined
        ? ''
        : `${fixed(phase.rssMb, 0)}${phase.peakRssMb === undefined ? '' : ` (peak ${fixed(phase.peakRssMb, 0)})`}`,
    ]),
  );
}

function checksTable(checks: readonly Check[]): string {
  return formatTable(
    [{ header: 'check' }, { header: 'value', align: 'right' }, { header: 'target' }, { header: 'result' }],
    checks.map((c) => [
      c.name,
      `${fixed(c.value, c.unit === '%' ? 1 : 3)} ${c.unit}`,
      c.target ? `${c.target.comparison} ${c.target.value} ${c.unit}` : '',
      c.met === undefined ? 'info' : c.met ? 'ok' : 'MISS',
    ]),
  );
}
