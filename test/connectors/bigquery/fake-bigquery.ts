/**
 * A local stand-in for BigQuery's REST API and Google's token endpoint (neither runs here): it
 * checks the signed JWT grant against the key's public half, answers scripted jobs, and records
 * every request so tests can assert exactly what was sent.
 */
import { generateKeyPairSync } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import { type ReceivedRequest, startHttpServer, type TestServer } from '../../support/http-server.ts';

export interface ScriptedJob {
  /** Polls answered RUNNING before DONE; Infinity: never ends (until cancelled). */
  runningPolls?: number;
  errorResult?: { reason: string; message: string; location?: string };
  /** An error of jobs.insert itself (HTTP status and Google's error body). */
  insertError?: { status: number; reason: string; message: string };
  statistics?: { totalBytesProcessed?: string; totalBytesBilled?: string };
  pages?: { schema?: { fields: unknown[] }; rows?: { f: { v: unknown }[] }[]; numDmlAffectedRows?: string }[];
}

export interface FakeBigQuery {
  url: string;
  server: TestServer;
  /** The whole JSON key file text, its token_uri pointing at this fake. */
  keyText: string;
  /** The next jobs.insert calls get these scripts, in order. */
  script(...jobs: ScriptedJob[]): void;
  inserts(): Record<string, unknown>[];
  requests(pathPart: string): ReceivedRequest[];
  tokenRequests: number;
  close(): Promise<void>;
}

export const accessToken = 'ya29.fake-access-token';

export async function startFakeBigQuery(projectId = 'dogu-analytics'): Promise<FakeBigQuery> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const verifyKey = await importSPKI(publicKey, 'RS256');
  const queue: ScriptedJob[] = [];
  const jobs = new Map<string, { script: ScriptedJob; polls: number; cancelled: boolean }>();
  const state = { tokenRequests: 0 };
  let url = '';
  const clientEmail = `dogu-runner@${projectId}.iam.gserviceaccount.com`;

  const server = await startHttpServer(async (request, response) => {
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const path = new URL(request.url, url).pathname;
    const query = new URL(request.url, url).searchParams;
    if (path === '/token') {
      state.tokenRequests++;
      const form = new URLSearchParams(request.body.toString());
      try {
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
          throw new Error('grant');
        const { payload } = await jwtVerify(form.get('assertion') ?? '', verifyKey, {
          issuer: clientEmail,
          // google-auth-library signs for Google's token endpoint; the key's token_uri says where it goes.
          audience: 'https://oauth2.googleapis.com/token',
        });
        if (payload.scope !== 'https://www.googleapis.com/auth/bigquery') throw new Error('scope');
        return send(200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
      } catch {
        return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
    }
    if (request.headers.authorization !== `Bearer ${accessToken}`) {
      return send(401, {
        error: {
          code: 401,
          message: 'Request had invalid authentication credentials.',
          status: 'UNAUTHENTICATED',
        },
      });
    }
    const prefix = `/bigquery/v2/projects/${projectId}`;
    if (!path.startsWith(prefix)) return send(404, { error: { code: 404, message: `Not found: ${path}` } });
    const rest = path.slice(prefix.length);
    if (request.method === 'POST' && rest === '/jobs') {
      const body = JSON.parse(request.body.toString()) as {
        jobReference?: { jobId?: string };
        configuration?: { dryRun?: boolean };
      };
      const script = queue.shift() ?? {};
      if (script.insertError) {
        const { status, reason, message } = script.insertError;
        return send(status, { error: { code: status, message, errors: [{ reason, message }] } });
      }
      if (body.configuration?.dryRun) {
        return send(200, {
          jobReference: { projectId, location: 'asia-northeast1' },
          status: { state: 'DONE', ...(script.errorResult ? { errorResult: script.errorResult } : {}) },
          statistics: { query: { totalBytesProcessed: script.statistics?.totalBytesProcessed ?? '0' } },
        });
      }
      const jobId = body.jobReference?.jobId ?? 'anonymous';
      jobs.set(jobId, { script, polls: 0, cancelled: false });
      return send(200, { jobReference: body.jobReference, status: { state: 'RUNNING' } });
    }
    const job = /^\/jobs\/([^/]+)(\/cancel)?$/.exec(rest);
    if (job) {
      const known = jobs.get(job[1]!);
      if (!known) return send(404, { error: { code: 404, message: `Not found: Job ${job[1]}` } });
      if (job[2]) {
        known.cancelled = true;
        return send(200, { job: { status: { state: 'DONE' } } });
      }
      known.polls++;
      const running = known.polls <= (known.script.runningPolls ?? 0) && !known.cancelled;
      if (running) return send(200, { status: { state: 'RUNNING' } });
      const errorResult = known.cancelled
        ? { reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' }
        : known.script.errorResult;
      return send(200, {
        status: { state: 'DONE', ...(errorResult ? { errorResult } : {}) },
        statistics: {
          query: { totalBytesProcessed: '0', totalBytesBilled: '0', ...known.script.statistics },
        },
      });
    }
    const results = /^\/queries\/([^/]+)$/.exec(rest);
    if (results && request.method === 'GET') {
      const known = jobs.get(results[1]!);
      if (!known) return send(404, { error: { code: 404, message: 'Not found: Job' } });
      const pages = known.script.pages ?? [{}];
      const index = Number(query.get('pageToken') ?? '0');
      const page = pages[index] ?? {};
      return send(200, {
        jobComplete: true,
        ...page,
        ...(index + 1 < pages.length ? { pageToken: String(index + 1) } : {}),
      });
    }
    return send(404, { error: { code: 404, message: `No route ${request.method} ${rest}` } });
  });
  url = server.url;
  const keyText = JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: 'key-1',
    private_key: privateKey,
    client_email: clientEmail,
    token_uri: `${url}/token`,
  });
  return {
    url,
    server,
    keyText,
    script: (...scripted) => queue.push(...scripted),
    inserts: () =>
      server.requests
        .filter((r) => r.method === 'POST' && new URL(r.url, url).pathname.endsWith('/jobs'))
        .map((r) => JSON.parse(r.body.toString()) as Record<string, unknown>),
    requests: (part) => server.requests.filter((r) => r.url.includes(part)),
    get tokenRequests() {
      return state.tokenRequests;
    },
    close: () => server.close(),
  };
}
