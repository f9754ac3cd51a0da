/** Starts a real embedded runtime (dynalite + PGlite + HTTP) in a fresh data directory. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '../../local/runtime.ts';
import { seedDemoDatabaseDir } from './pglite-template.ts';

export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `dogu-${prefix}-`));
  // Retries: a runtime whose start outran its hook may still be writing while the directory goes
  // (ENOTEMPTY), which hid the hook's own time-out behind a second failure.
  // A runtime started in it anchors its audit chain to a file beside it (local/audit-anchor-file.ts).
  return {
    path,
    remove: async () => {
      await rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      await rm(`${path}.audit-anchors.jsonl`, { force: true });
    },
  };
}

export async function startTestRuntime(
  dataDir: string,
  extra: Partial<
    Pick<
      LocalRuntimeOptions,
      | 'demoDatabaseUrl'
      | 'notificationRetryDelaysMs'
      | 'notificationTimeoutMs'
      | 'connectors'
      | 'connectorRuntimes'
      | 'rateLimitPerMinute'
      | 'mcpToolCallsPerMinute'
      | 'maxExecutionMs'
      | 'scriptConcurrency'
      | 'bodyTimeoutMs'
    >
  > = {},
  /** false: the runtime runs initdb itself, as on a real first start (demo.test.ts keeps that path). */
  { demoDatabaseTemplate = true }: { demoDatabaseTemplate?: boolean } = {},
): Promise<LocalRuntime> {
  // A fresh data directory gets the demo database's initdb from a template (pglite-template.ts).
  if (demoDatabaseTemplate && !extra.demoDatabaseUrl) await seedDemoDatabaseDir(dataDir);
  return startLocalRuntime({ dataDir, host: '127.0.0.1', port: 0, demoDbPort: 0, ...extra });
}

export async function loginToken(runtime: LocalRuntime): Promise<string> {
  const response = await fetch(`${runtime.url}/local/v1/login`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

export const executionsPath = (projectId: string, environmentId: string, actionId: string) =>
  `/public/v1/projects/${projectId}/environments/${environmentId}/actions/${actionId}/executions`;

export async function postJson(
  runtime: LocalRuntime,
  path: string,
  options: { token?: string; body?: string; contentType?: string | null } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${runtime.url}${path}`, {
    method: 'POST',
    headers,
    body: options.body ?? '{}',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
