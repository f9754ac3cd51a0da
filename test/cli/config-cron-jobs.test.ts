/**
 * The `cronJobs` key of the config file against one real embedded runtime (project `demo`): jobs of
 * both schedule kinds created with the action and the service account they name, no-op second
 * applies, a schedule change (PUT), stop and resume (their own endpoints), executors by service
 * account name, refusals at their place in the file, and the export round trip.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { runCli } from '../support/cli-bundle.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let files: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;

const jobsPath = (environmentId: string) => `/api/v1/projects/demo/environments/${environmentId}/cron-jobs`;

/** Production is protected: a job there needs a published version of its action (docs/governance.md). */
async function publishToProduction(actionId: string) {
  const path = `/api/v1/projects/demo/actions/${actionId}`;
  const { latest } = (await api.get(`${path}/versions`)).body;
  expect((await api.put(`${path}/publications/production`, { version: latest })).status).toBe(200);
}
const dogu = (args: string[]) => runCli(args, { HOME: home.path, DOGU_URL: runtime.url });
const writeConfig = async (name: string, text: string) => {
  const path = join(files.path, name);
  await writeFile(path, text);
  return path;
};
/** The plan's lines for resources, without the unchanged ones. */
const changeLines = (markdown: string) => markdown.split('\n').filter((l) => /^- `[+~] /.test(l));
const progressLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('✓'));

interface JobView {
  id: string;
  name: string;
  state: string;
  version: number;
  timeZone: string;
  overlap: string;
  arguments: Record<string, unknown>;
  expressions: string[];
  executor: { kind: string; id: string; email: string };
}
const jobsOf = async (environmentId: string): Promise<JobView[]> =>
  (await api.get(jobsPath(environmentId))).body.data;
const jobNamed = async (environmentId: string, name: string) =>
  (await jobsOf(environmentId)).find((j) => j.name === name);

/** An action with a required number and a service account allowed to run it, both in the file. */
const base = `version: 1
project: demo
actions:
  - id: cron-report
    name: Cron report
    kind: sql
    dataSourceId: demo-postgres
    parameters:
      - { name: n, kind: number, required: true, integer: true, max: 1000 }
    statements:
      - { title: Report, sql: "SELECT CAST({{ n }} AS int) AS n" }
serviceAccounts:
  - name: nightly-bot
    role: member
`;

/** Two jobs, one per schedule kind; `nightly` is the form's options, `weekly` the cron job's extra lines. */
const jobsFile = (
  options: { time?: string; nightlyExtra?: string; weeklyExtra?: string } = {},
) => `${base}cronJobs:
  - name: Nightly report
    environment: development
    schedule:
      kind: form
      days: { by: weekday, weekdays: [MON, TUE, WED, THU, FRI] }
      times: { kind: fixed, times: ["${options.time ?? '02:30'}"] }
    action: cron-report
    arguments: { n: 5 }
${options.nightlyExtra ?? ''}  - name: Weekly sync
    environment: development
    schedule: { kind: cron, expression: "0 3 ? * SUN *" }
    timeZone: UTC
    overlap: skip
    action: cron-report
    arguments: { n: 7 }
    executor: { serviceAccount: nightly-bot }
${options.weeklyExtra ?? ''}`;

beforeAll(async () => {
  [dataDir, home, files] = await Promise.all([
    tempDir('cron-config-data'),
    tempDir('cron-config-home'),
    tempDir('cron-config-files'),
  ]);
  runtime = await startTestRuntime(dataDir.path);
  api = apiClient(runtime, await loginToken(runtime));
  // The demo seeds an example job; these tests start from environments without jobs.
  for (const job of (await api.get(jobsPath('development'))).body.data as { id: string }[]) {
    expect((await api.delete(`${jobsPath('development')}/${job.id}`)).status).toBe(204);
  }
  expect((await dogu(['login'])).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove(), files?.remove()]);
});

describe('cron jobs in the config file', () => {
  it('creates jobs of both schedule kinds after the action and the service account they name', async () => {
    const path = await writeConfig('jobs.yaml', jobsFile());
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain(
      '### Cron jobs\n\n- `+ create` `development.Nightly report`\n- `+ create` `development.Weekly sync`\n',
    );
    expect(await jobsOf('development')).toEqual([]);

    const applied = await dogu(['apply', '-f', path]);
    expect(applied.stderr).toContain("Applied 4 changes to project 'demo'.");
    expect(applied.code).toBe(0);
    expect(progressLines(applied.stderr)).toEqual([
      '✓ created service account nightly-bot',
      '✓ created action cron-report (version 1)',
      '✓ created cron job development.Nightly report (version 1)',
      '✓ created cron job development.Weekly sync (version 1)',
    ]);

    const nightly = await jobNamed('development', 'Nightly report');
    expect(nightly).toMatchObject({
      state: 'running',
      timeZone: 'Asia/Tokyo',
      overlap: 'allow',
      arguments: { n: 5 },
      expressions: ['30 2 ? * MON-FRI *'],
      // Left out of the file: whoever applies.
      executor: { kind: 'user', email: 'admin@dogu.local' },
    });
    const account = (await api.get('/api/v1/projects/demo/service-accounts')).body.data.find(
      (a: { name: string }) => a.name === 'nightly-bot',
    );
    // The account was created by the same apply: its id was filled in when the job was saved.
    expect(await jobNamed('development', 'Weekly sync')).toMatchObject({
      state: 'running',
      timeZone: 'UTC',
      overlap: 'skip',
      expressions: ['0 3 ? * SUN *'],
      executor: { kind: 'service_account', id: account.id, email: 'nightly-bot@demo.sa.dogu' },
    });
  });

  it('a second apply has nothing to do', async () => {
    const path = await writeConfig('jobs.yaml', jobsFile());
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual([]);
    expect(dryRun.stdout).toContain('- `= unchanged` `development.Weekly sync`');
    const again = await dogu(['apply', '-f', path]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("Nothing to apply: project 'demo' already matches");
    expect((await jobNamed('development', 'Nightly report'))?.version).toBe(1);
  });

  it('a changed schedule and a new service-account executor are one PUT of the same job', async () => {
    const before = await jobNamed('development', 'Nightly report');
    const path = await writeConfig(
      'jobs-changed.yaml',
      jobsFile({ time: '10:15', nightlyExtra: '    executor: { serviceAccount: nightly-bot }\n' }),
    );
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(changeLines(dryRun.stdout)).toEqual(['- `~ update` `development.Nightly report`']);
    const block = dryRun.stdout.slice(dryRun.stdout.indexOf('- `~ update`')).split('\n');
    expect(block.slice(1, 4)).toEqual([
      '  - `schedule.times.times[0]: "02:30" → "10:15"`',
      '  - `executor.serviceAccount: (not set) → "nightly-bot"`',
      '  - `executor.user: "admin@dogu.local" → (not set)`',
    ]);

    const applied = await dogu(['apply', '-f', path]);
    expect(applied.code).toBe(0);
    expect(progressLines(applied.stderr)).toEqual([
      '✓ updated cron job development.Nightly report (version 2)',
    ]);
    const after = await jobNamed('development', 'Nightly report');
    expect(after).toMatchObject({
      id: before?.id,
      version: 2,
      expressions: ['15 10 ? * MON-FRI *'],
      executor: { kind: 'service_account', email: 'nightly-bot@demo.sa.dogu' },
      state: 'running',
    });
  });

  it('state: stopped stops the job through its stop endpoint; left out again, the state is kept', async () => {
    const stoppedFile = await writeConfig(
      'jobs-stopped.yaml',
      jobsFile({
        time: '10:15',
        nightlyExtra: '    executor: { serviceAccount: nightly-bot }\n    state: stopped\n',
      }),
    );
    const dryRun = await dogu(['apply', '-f', stoppedFile, '--dry-run']);
    expect(changeLines(dryRun.stdout)).toEqual(['- `~ update` `development.Nightly report`']);
    expect(dryRun.stdout).toContain('  - `state: "running" → "stopped"`');

    const applied = await dogu(['apply', '-f', stoppedFile]);
    expect(applied.code).toBe(0);
    // Only the stop: nothing else differed, so no PUT (which would refuse a state change anyway).
    expect(progressLines(applied.stderr)).toEqual([
      '✓ updated cron job development.Nightly report (version 3) (stopped)',
    ]);
    const stopped = await jobNamed('development', 'Nightly report');
    expect(stopped).toMatchObject({ state: 'stopped', version: 3 });
    expect((await api.get(`${jobsPath('development')}/${stopped?.id}`)).body.nextRuns).toEqual([]);

    // The file that does not say `state` leaves an operator's stop alone.
    const silent = await writeConfig(
      'jobs-silent.yaml',
      jobsFile({ time: '10:15', nightlyExtra: '    executor: { serviceAccount: nightly-bot }\n' }),
    );
    const kept = await dogu(['apply', '-f', silent]);
    expect(kept.stderr).toContain("Nothing to apply: project 'demo' already matches");
    expect((await jobNamed('development', 'Nightly report'))?.state).toBe('stopped');

    const resumeFile = await writeConfig(
      'jobs-resumed.yaml',
      jobsFile({
        time: '10:15',
        nightlyExtra: '    executor: { serviceAccount: nightly-bot }\n    state: running\n',
      }),
    );
    const resumed = await dogu(['apply', '-f', resumeFile]);
    expect(resumed.code).toBe(0);
    expect(progressLines(resumed.stderr)).toEqual([
      '✓ updated cron job development.Nightly report (version 4) (resumed)',
    ]);
    expect((await jobNamed('development', 'Nightly report'))?.state).toBe('running');
  });

  it('a bad cron expression and a bad time zone are refused at their place before anything is sent', async () => {
    const path = await writeConfig(
      'bad-cron.yaml',
      jobsFile()
        .replace('"0 3 ? * SUN *"', '"61 3 ? * SUN *"')
        .replace('timeZone: UTC', 'timeZone: Mars/Olympus'),
    );
    const result = await dogu(['apply', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path} has 2 problems; nothing was sent:`);
    expect(result.stderr).toContain(
      `  ${path}:26:41: cronJobs[1].schedule.expression: Minute field '61' is out of range 0-59.`,
    );
    expect(result.stderr).toMatch(
      new RegExp(`  ${path}:27:15: cronJobs\\[1\\]\\.timeZone: .*'Mars/Olympus'`),
    );
    expect(result.stdout).toBe('');
  });

  it('two jobs of one name in one environment are refused in the file; in another environment they are fine', async () => {
    const duplicate = `${jobsFile()}  - name: Weekly sync
    environment: development
    schedule: { kind: cron, expression: "0 4 ? * SUN *" }
    action: cron-report
    arguments: { n: 1 }
  - name: Weekly sync
    environment: production
    schedule: { kind: cron, expression: "0 4 ? * SUN *" }
    action: cron-report
    arguments: { n: 1 }
`;
    const path = await writeConfig('duplicate.yaml', duplicate);
    const result = await dogu(['apply', '-f', path, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path} has 1 problem; nothing was sent:`);
    expect(result.stderr).toContain(
      `  ${path}:32:11: cronJobs[2].name: 'Weekly sync' is already the name of cronJobs[1] in environment 'development' (names are unique per environment)`,
    );
  });

  it('a protected environment: a job whose action has nothing published there is refused at its place; a changed action is warned about', async () => {
    const file = `${base.replace('CAST({{ n }} AS int) AS n', 'CAST({{ n }} AS int) AS n, 1 AS one')}cronJobs:
  - name: Guarded
    environment: production
    schedule: { kind: cron, expression: "0 6 ? * MON *" }
    action: cron-report
    arguments: { n: 2 }
`;
    const path = await writeConfig('protected.yaml', file);
    const refused = await dogu(['apply', '-f', path, '--dry-run']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${path}:19:13: environment 'production' is protected and action 'cron-report' has no version ` +
        'published there: publish one (publications.production.cron-report) for the job to run',
    );
    // The version this apply makes (the file changes the statement) is the one the file may pin.
    const stored = await api.get('/api/v1/projects/demo/actions/cron-report/versions');
    const next = (stored.status === 200 ? stored.body.latest : 0) + 1;
    const pinned = await writeConfig(
      'pinned.yaml',
      `${file}publications:\n  production:\n    cron-report: ${next}\n`,
    );
    const planned = await dogu(['apply', '-f', pinned, '--dry-run']);
    expect(planned.code, planned.stderr).toBe(0);
    // Without the pin in the file, the plan says what production keeps running.
    await publishToProduction('cron-report');
    const warned = await dogu(['apply', '-f', path, '--dry-run']);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stdout).toMatch(
      /⚠ 'production' is protected: it keeps version \d+ until the new version is published \(publications\.production\.cron-report\)/,
    );
  });

  it('an environment holding two jobs of the name the file gives is refused before any write, naming both', async () => {
    const body = {
      name: 'Twin',
      schedule: { kind: 'cron', expression: '0 5 ? * MON *' },
      actionId: 'cron-report',
      arguments: { n: 1 },
    };
    await publishToProduction('cron-report');
    const first = await api.post(jobsPath('production'), body);
    const second = await api.post(jobsPath('production'), body);
    expect([first.status, second.status]).toEqual([201, 201]);
    const path = await writeConfig(
      'twins.yaml',
      `${base}variables:
  development:
    twin_marker: "1"
cronJobs:
  - name: Twin
    environment: production
    schedule: { kind: cron, expression: "0 6 ? * MON *" }
    action: cron-report
    arguments: { n: 2 }
`,
    );
    const result = await dogu(['apply', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dogu: ${path}:19:11: environment 'production' of project 'demo' has 2 cron jobs named 'Twin' (${first.body.id}, ${second.body.id})`,
    );
    expect(
      (await api.get('/api/v1/projects/demo/environments/development/variables/twin_marker')).status,
    ).toBe(404);
    expect((await jobsOf('production')).map((j) => j.version)).toEqual([1, 1]);
    for (const job of [first, second])
      expect((await api.delete(`${jobsPath('production')}/${job.body.id}`)).status).toBe(204);
  });

  it("the service's refusal of an argument is shown at the argument's place in the file", async () => {
    const path = await writeConfig(
      'bad-argument.yaml',
      `${base}cronJobs:
  - name: Bad argument
    environment: development
    schedule: { kind: cron, expression: "0 7 ? * MON *" }
    action: cron-report
    arguments: { n: 5000 }
`,
    );
    const result = await dogu(['apply', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dogu: Could not create cron job development.Bad argument (cronJobs[0], ${path}:16:5): 422`,
    );
    expect(result.stderr).toMatch(
      new RegExp(`\\n {2}${path}:20:21: cronJobs\\[0\\]\\.arguments\\.n: 'n' .*1000`),
    );
    expect(await jobNamed('development', 'Bad argument')).toBeUndefined();
  });

  it('a job naming an action or a service account that exists nowhere is refused before any write', async () => {
    const path = await writeConfig(
      'unknown-names.yaml',
      `${base}cronJobs:
  - name: Nowhere
    environment: development
    schedule: { kind: cron, expression: "0 7 ? * MON *" }
    action: no-such-action
    executor: { serviceAccount: ghost-bot }
`,
    );
    const result = await dogu(['apply', '-f', path, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dogu: ${path}:19:13: no action 'no-such-action' in the file or in the project`,
    );
    expect(result.stderr).toContain(
      `dogu: ${path}:20:33: no service account 'ghost-bot' in the file or in project 'demo'`,
    );
  });

  it('export writes the jobs so that applying the export changes nothing', async () => {
    // A stopped job with a user executor and the defaults changed, to see each written (or not).
    const created = await api.post(jobsPath('production'), {
      name: 'Month end',
      schedule: {
        kind: 'form',
        days: { by: 'dayOfMonth', days: [15, 'L'] },
        times: { kind: 'hourly', minutes: [0, 30] },
      },
      actionId: 'cron-report',
      arguments: { n: 3 },
      state: 'stopped',
    });
    expect(created.status).toBe(201);

    const output = join(files.path, 'exported.yaml');
    expect((await dogu(['export', '-o', output])).code).toBe(0);
    const text = await readFile(output, 'utf8');
    expect(text).toContain(
      '# cronJobs without executor run as a user, who cannot be named here: apply keeps the executor a job\n',
    );
    const section = text.slice(text.indexOf('\ncronJobs:\n'));
    expect(section).toContain(`
  - name: Nightly report
    environment: development
    schedule:
      kind: form
      days:
        by: weekday
        weekdays:
          - MON
          - TUE
          - WED
          - THU
          - FRI
      times:
        kind: fixed
        times:
          - 10:15
    action: cron-report
    arguments:
      n: 5
    executor:
      serviceAccount: nightly-bot
  - name: Weekly sync
    environment: development
`);
    expect(section).toContain('    timeZone: UTC\n');
    expect(section).toContain('    overlap: skip\n');
    expect(section).toMatch(
      / {2}- name: Month end\n {4}environment: production\n[^-]*[\s\S]*? {4}state: stopped\n/,
    );
    // No ids, versions or server-only fields; the user executor is left out.
    for (const field of ['cron_', 'setBy', 'nextRuns', 'expressions', 'admin@dogu.local\n    ']) {
      expect(section).not.toContain(field);
    }
    expect(section.slice(section.indexOf('- name: Month end')).split('\n  - ')[0]).not.toContain('executor');

    const dryRun = await dogu(['apply', '-f', output, '--dry-run']);
    expect(dryRun.stderr).toBe('');
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual([]);
    expect(dryRun.stdout).toContain('- `= unchanged` `production.Month end`');
    expect(dryRun.stdout).not.toContain('### Not in the file');
  });
});
