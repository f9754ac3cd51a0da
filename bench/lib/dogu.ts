/**
 * Dogu as the benches' clients see it: a local login to the embedded runtime
 * (bench/lib/runtime-process.ts), definitions created through the management
 * API as a user would, and actions run through the public API.
 */
import type { PhasePlan, Subject } from './compare.ts';
import { HttpClient } from './http-client.ts';
import type { Json } from './report.ts';

export interface ActionRef {
  project: string;
  environment: string;
  id: string;
}

/** A client for the measured requests: twice the throughput phase's concurrency in sockets, so none waits. */
export function benchClient(url: string, phases: PhasePlan): HttpClient {
  return new HttpClient(url, { maxSockets: phases.throughputConcurrency * 2, timeoutMs: 30_000 });
}

/** Successful only with `expected` rows in results[0].rows: Dogu's answer, and the http floor's. */
export function expectResultRows(body: string, expected: number): void {
  const parsed = JSON.parse(body) as { results?: { rows?: unknown[] }[] };
  const rows = parsed.results?.[0]?.rows?.length;
  if (rows !== expected) throw new Error(`expected ${expected} rows, got ${rows}`);
}

/** A logged-in client of one runtime. close() when done (a teardown step). */
export class DoguSession {
  private constructor(
    private readonly client: HttpClient,
    private readonly authorization: string,
  ) {}

  /** POST /local/v1/login, the embedded runtime's stand-in for the real sign-in. */
  static async login(runtimeUrl: string, phases: PhasePlan): Promise<DoguSession> {
    const client = benchClient(runtimeUrl, phases);
    try {
      const login = await client.send(client.prepare('POST', '/local/v1/login'));
      if (login.status !== 200) throw new Error(`Local login answered ${login.status}: ${login.body}`);
      const { token } = JSON.parse(login.body) as { token: string };
      return new DoguSession(client, `Bearer ${token}`);
    } catch (error) {
      client.close();
      throw error;
    }
  }

  /**
   * Creates or replaces a definition through the management API (setup, not
   * measured), e.g. `/api/v1/projects/demo/actions/x`. Anything but 2xx stops
   * the bench with the answer; a missing API says so plainly rather than
   * letting the bench measure something else.
   */
  async put(path: string, definition: Json): Promise<void> {
    const response = await this.client.send(
      this.client.prepare('PUT', path, { headers: { authorization: this.authorization }, json: definition }),
    );
    if (response.status >= 200 && response.status < 300) return;
    const missingApi = response.status === 404 || response.status === 405;
    throw new Error(
      `PUT ${path} answered ${response.status}: ${response.body.slice(0, 300)}` +
        (missingApi
          ? '\nThe bench creates its data source and action through the management API ' +
            '(PUT /api/v1/projects/{projectId}/data-sources/{id} and .../actions/{id}); this runtime does not serve it yet.'
          : ''),
    );
  }

  /**
   * The subject 'dogu': POST .../actions/{id}/executions with these arguments,
   * successful only with status 200 and `expectedRows` rows in results[0].rows.
   */
  executionSubject(action: ActionRef, actionArguments: Json, expectedRows: number): Subject {
    const execute = this.client.prepare(
      'POST',
      `/public/v1/projects/${action.project}/environments/${action.environment}/actions/${action.id}/executions`,
      { headers: { authorization: this.authorization }, json: { arguments: actionArguments } },
    );
    return {
      name: 'dogu',
      request: async () => expectResultRows(await this.client.sendExpectingOk(execute), expectedRows),
    };
  }

  close(): void {
    this.client.close();
  }
}
