/**
 * `dogu smoke --url URL`: a post-deploy check of a fresh Dogu, end to end (docs/deploy.md). Every
 * check prints one line; anything it creates is named `smoke-<run id>-…` and removed at the end.
 */
import { randomBytes } from 'node:crypto';
import { type ApiError, callApi } from '../api-client.ts';
import { accessToken } from './print-access-token.ts';
import { isLoopbackUrl, type SmokeEcho, startSmokeEcho } from './smoke-echo.ts';

export interface SmokeOptions {
  baseUrl: string;
  project: string;
  environment: string;
  /** An echo the deployment can reach; default: the smoke's own, when the runtime is on loopback. */
  echoUrl?: string;
  /** Wait for the reservation to run (up to two minutes) instead of cancelling it. */
  waitReservation: boolean;
  json: boolean;
  stdout: (text: string) => void;
  pollIntervalMs?: number;
}

export type CheckStatus = 'passed' | 'failed' | 'skipped';
export interface CheckResult {
  name: string;
  status: CheckStatus;
  ms: number;
  detail: string;
}

const terminal = new Set(['succeeded', 'failed', 'timed_out']);

export async function smoke(options: SmokeOptions): Promise<number> {
  const origin = new URL(options.baseUrl).origin;
  const runId = `smoke-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex')}`;
  const nonce = randomBytes(8).toString('hex');
  const results: CheckResult[] = [];
  const pollMs = options.pollIntervalMs ?? 500;
  let blocked: string | undefined;

  const check = async (name: string, body: () => Promise<string>, skip?: string): Promise<boolean> => {
    const reason = blocked ?? skip;
    if (reason) {
      results.push({ name, status: 'skipped', ms: 0, detail: reason });
      if (!options.json) options.stdout(`- ${name}: skipped (${reason})\n`);
      return false;
    }
    const started = performance.now();
    let result: CheckResult;
    try {
      const detail = await body();
      result = { name, status: 'passed', ms: Math.round(performance.now() - started), detail };
    } catch (error) {
      const detail = (error as Error).message;
      result = { name, status: 'failed', ms: Math.round(performance.now() - started), detail };
    }
    results.push(result);
    if (!options.json) {
      const mark = result.status === 'passed' ? '✓' : '✗';
      options.stdout(`${mark} ${name} (${result.ms} ms): ${result.detail}\n`);
    }
    return result.status === 'passed';
  };

  const url = (path: string) => new URL(path, origin).toString();
  let token = '';
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    callApi(url(path), {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const projectPath = `/api/v1/projects/${encodeURIComponent(options.project)}`;
  const environmentPath = `${projectPath}/environments/${encodeURIComponent(options.environment)}`;
  const executionsPath = (actionId: string) =>
    `/public/v1/projects/${encodeURIComponent(options.project)}/environments/${encodeURIComponent(options.environment)}/actions/${actionId}/executions`;

  if (
    !(await check('health', async () => {
      const body = (await callApi(url('/healthz'))) as { status?: string };
      if (body?.status !== 'ok')
        throw new Error(`GET /healthz answered ${JSON.stringify(body).slice(0, 200)}: is this Dogu?`);
      return `${origin}/healthz is ok`;
    }))
  ) {
    blocked = 'Dogu is not healthy';
  }

  await check('openapi', async () => {
    const document = (await callApi(url('/openapi.json'))) as { openapi?: string; paths?: object };
    if (!document?.openapi?.startsWith('3.') || !document.paths) {
      throw new Error('GET /openapi.json is not an OpenAPI 3 document');
    }
    return `OpenAPI ${document.openapi}, ${Object.keys(document.paths).length} paths`;
  });

  const signedIn = await check('sign-in', async () => {
    const credentials = await accessToken();
    if (new URL(credentials.url).origin !== origin) {
      throw new Error(
        `The stored login is for ${credentials.url}, not ${origin}. Log in there first: \`npx dogu login --url ${origin}\` (--sso or --email as your deployment signs in).`,
      );
    }
    token = credentials.token;
    const me = (await api('/public/v1/me')) as { email?: string };
    return `token accepted for ${me.email}`;
  });
  if (!signedIn) blocked ??= 'not signed in';

  // Created resources, removed in reverse at the end whatever failed on the way.
  const created: { path: string; label: string }[] = [];
  let reservationToCancel: string | undefined;
  const scriptSource = `${runId}-script`;
  const jobAction = `${runId}-job`;

  /** What could not be removed (labels); a resource already gone (404) counts as removed. */
  const removeCreated = async (): Promise<string[]> => {
    const left: string[] = [];
    const tolerate404 = (label: string) => (error: unknown) => {
      if ((error as ApiError).status !== 404) left.push(label);
    };
    if (reservationToCancel) {
      const id = reservationToCancel;
      await api(`${environmentPath}/reservations/${id}/cancel`, { method: 'POST' }).catch(
        tolerate404(`reservation ${id}`),
      );
    }
    // Actions before their data sources: a data source in use is not deleted.
    for (const item of created.toReversed()) {
      await api(item.path, { method: 'DELETE' }).catch(tolerate404(item.label));
    }
    return left;
  };
  // Ctrl-C (or a CI job's stop) mid-way still removes what was made: nothing smoke-… is left behind.
  const onInterrupt = () => {
    options.stdout('Interrupted: removing what the smoke made…\n');
    void removeCreated().then(
      (left) => {
        options.stdout(
          left.length > 0 ? `Left behind: ${left.join(', ')}; delete them by hand.\n` : 'Removed.\n',
        );
        process.exit(130);
      },
      () => process.exit(130),
    );
  };
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);

  let echo: SmokeEcho | undefined;
  let echoUrl = options.echoUrl;
  let echoSkip: string | undefined;
  if (!echoUrl && !blocked) {
    if (isLoopbackUrl(origin)) {
      echo = await startSmokeEcho();
      echoUrl = echo.url;
    } else {
      echoSkip = 'a deployed runtime cannot reach an echo on this machine; pass --echo-url https://…';
    }
  }
  try {
    await check(
      'http-echo',
      async () => {
        const source = `${runId}-echo`;
        await api(`${projectPath}/data-sources/${source}`, {
          method: 'PUT',
          body: {
            id: source,
            name: `Smoke ${runId} echo`,
            kind: 'http',
            environments: { [options.environment]: { url: echoUrl } },
          },
        });
        created.push({ path: `${projectPath}/data-sources/${source}`, label: `data source ${source}` });
        await api(`${projectPath}/actions/${source}`, {
          method: 'PUT',
          body: {
            id: source,
            name: `Smoke ${runId} echo`,
            kind: 'http',
            dataSourceId: source,
            method: 'POST',
            path: '/smoke',
            body: { type: 'json', json: '{"nonce": {{ nonce }}}' },
            parameters: [{ name: 'nonce', kind: 'text', required: true }],
          },
        });
        created.push({ path: `${projectPath}/actions/${source}`, label: `action ${source}` });
        const execution = (await api(executionsPath(source), {
          method: 'POST',
          body: { arguments: { nonce } },
        })) as { status?: string };
        if (execution.status !== 'succeeded' || !JSON.stringify(execution).includes(nonce)) {
          throw new Error(`the echo's answer did not come back: ${JSON.stringify(execution).slice(0, 300)}`);
        }
        return `POST ${echoUrl}/smoke answered through action ${source}`;
      },
      echoSkip,
    );

    // The job and the reservation run a JavaScript action: no network, so they work on any deployment.
    const jobReady = await check('async-job', async () => {
      await api(`${projectPath}/data-sources/${scriptSource}`, {
        method: 'PUT',
        body: {
          id: scriptSource,
          name: `Smoke ${runId} script`,
          kind: 'javascript',
          environments: { [options.environment]: {} },
        },
      });
      created.push({
        path: `${projectPath}/data-sources/${scriptSource}`,
        label: `data source ${scriptSource}`,
      });
      await api(`${projectPath}/actions/${jobAction}`, {
        method: 'PUT',
        body: {
          id: jobAction,
          name: `Smoke ${runId} job`,
          kind: 'javascript',
          dataSourceId: scriptSource,
          parameters: [{ name: 'nonce', kind: 'text', required: true }],
          code: 'return { nonce: params.nonce };',
        },
      });
      created.push({ path: `${projectPath}/actions/${jobAction}`, label: `action ${jobAction}` });
      const queued = (await api(executionsPath(jobAction), {
        method: 'POST',
        body: { arguments: { nonce }, async: true },
      })) as { execution: { id: string }; links: { self: string } };
      const status = await pollExecution(api, queued.links.self, 120_000, pollMs);
      if (status.status !== 'succeeded') throw new Error(`job ${queued.execution.id} ended ${status.status}`);
      return `job ${queued.execution.id} succeeded`;
    });

    await check(
      'reservation',
      async () => {
        // A whole minute at least one full minute ahead: the earliest time a reservation accepts.
        const runAt = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
        const reservation = (await api(`${environmentPath}/reservations`, {
          method: 'POST',
          body: { actionId: jobAction, arguments: { nonce }, runAt: runAt.toISOString() },
        })) as { id: string; status: string };
        reservationToCancel = reservation.id;
        const read = (await api(`${environmentPath}/reservations/${reservation.id}`)) as { status: string };
        if (read.status !== 'scheduled') throw new Error(`reservation ${reservation.id} is ${read.status}`);
        if (!options.waitReservation) {
          await api(`${environmentPath}/reservations/${reservation.id}/cancel`, { method: 'POST' });
          reservationToCancel = undefined;
          return `reservation ${reservation.id} scheduled for ${runAt.toISOString()}, then cancelled (--wait-reservation waits for it to run)`;
        }
        const deadline = runAt.getTime() + 120_000;
        for (;;) {
          const now = (await api(`${environmentPath}/reservations/${reservation.id}`)) as { status: string };
          if (now.status === 'completed') {
            reservationToCancel = undefined;
            return `reservation ${reservation.id} ran at ${runAt.toISOString()} and completed`;
          }
          if (now.status !== 'scheduled' && now.status !== 'running') {
            reservationToCancel = undefined;
            throw new Error(`reservation ${reservation.id} ended ${now.status}`);
          }
          if (Date.now() > deadline)
            throw new Error(
              `reservation ${reservation.id} still ${now.status} 2 minutes after ${runAt.toISOString()}`,
            );
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      },
      jobReady ? undefined : 'the job action could not be set up',
    );
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    await echo?.close();
    if (created.length > 0 || reservationToCancel) {
      await check('cleanup', async () => {
        const left = await removeCreated();
        if (left.length > 0) throw new Error(`could not remove ${left.join(', ')}: delete them by hand`);
        return `removed ${created
          .toReversed()
          .map((item) => item.label)
          .join(', ')}`;
      });
    }
  }

  const failed = results.filter((result) => result.status === 'failed').length;
  if (options.json) {
    options.stdout(`${JSON.stringify({ url: origin, ok: failed === 0, checks: results }, null, 2)}\n`);
  } else {
    options.stdout(
      failed === 0 ? `Smoke check of ${origin} passed.\n` : `Smoke check of ${origin}: ${failed} failed.\n`,
    );
  }
  return failed === 0 ? 0 : 1;
}

async function pollExecution(
  api: (path: string) => Promise<unknown>,
  self: string,
  limitMs: number,
  intervalMs: number,
): Promise<{ status: string }> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const execution = (await api(self)) as { status: string };
    if (terminal.has(execution.status)) return execution;
    if (Date.now() > deadline) throw new Error(`job still ${execution.status} after ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
