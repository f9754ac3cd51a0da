/**
 * docs/examples/github-actions.yml must keep matching the token endpoint (spec 4.1) and the
 * execution endpoint (spec 4.2), so the example cannot rot while the API moves on.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  id?: string;
  name: string;
  env?: Record<string, string>;
  run?: string;
}
interface Workflow {
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const workflow = parse(
  await readFile(new URL('../../docs/examples/github-actions.yml', import.meta.url), 'utf8'),
) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const exchange = steps.find((step) => step.id === 'exchange')!;
const runAction = steps.find((step) => step.run?.includes('/executions'))!;

/** The jq object that builds the exchange body: `{field: value, ...}` → field → value. */
function exchangeBody(run: string): Record<string, string> {
  const object = /jq -n [^']*'\{([^}']*)\}'/.exec(run)?.[1];
  if (!object) throw new Error('no jq body in the exchange step');
  return Object.fromEntries(
    object.split(',').map((member) => {
      const [key, value] = member.split(':').map((part) => part.trim()) as [string, string];
      return [key, value];
    }),
  );
}

describe('the GitHub Actions example', () => {
  it('may request an ID token, with the audience of the trust policy', () => {
    expect(workflow.permissions['id-token']).toBe('write');
    expect(workflow.env.DOGU_AUDIENCE).toBe('dogu');
    expect(exchange.run).toContain('audience=$DOGU_AUDIENCE');
  });

  it('sends exactly the four token-exchange fields with the fixed values', () => {
    const body = exchangeBody(exchange.run!);
    expect(Object.keys(body).sort()).toEqual(
      ['grant_type', 'service_account_email', 'subject_token', 'subject_token_type'].sort(),
    );
    expect(body.grant_type).toBe('$ENV.GRANT_TYPE');
    expect(body.subject_token_type).toBe('$ENV.SUBJECT_TOKEN_TYPE');
    expect(body.subject_token).toBe('$subject_token');
    expect(exchange.env?.GRANT_TYPE).toBe('urn:ietf:params:oauth:grant-type:token-exchange');
    expect(exchange.env?.SUBJECT_TOKEN_TYPE).toBe('urn:ietf:params:oauth:token-type:jwt');
    expect(exchange.env?.SERVICE_ACCOUNT_EMAIL).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(exchange.run).toContain('"$DOGU_BASE_URL/public/v1/token"');
    expect(exchange.run).toContain("-H 'Content-Type: application/json'");
  });

  it('runs the action with the access token and fails the job on a non-2xx status', () => {
    const run = runAction.run!;
    expect(run).toContain('-H "Authorization: Bearer $ACCESS_TOKEN"');
    expect(run).toContain("-H 'Content-Type: application/json'");
    const body = /-d '([^']*)'/.exec(run)?.[1];
    expect(Object.keys(JSON.parse(body!) as object)).toEqual(['arguments']);
    expect(run).toContain(
      '"$DOGU_BASE_URL/public/v1/projects/$DOGU_PROJECT/environments/$DOGU_ENVIRONMENT/actions/$DOGU_ACTION/executions"',
    );
    for (const step of [exchange.run!, run]) {
      expect(step).toMatch(/-lt 200 \] \|\| \[ "\$status" -ge 300 \]/);
      expect(step).toContain('exit 1');
    }
  });
});
