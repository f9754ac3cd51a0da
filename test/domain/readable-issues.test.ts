/** Validation problems of request bodies in words (en and ja), checked on the real request schemas. */

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { projectInputSchema } from '../../shared/domain/manage/projects.ts';
import { fieldSentence, readableIssues } from '../../shared/domain/readable-issues.ts';
import { cronJobInputSchema } from '../../shared/domain/scheduling/cron-job-input.ts';

const problemsOf = (schema: z.ZodType, body: unknown) => {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('expected a refusal');
  return readableIssues(parsed.error.issues, body);
};

describe('readableIssues', () => {
  it("says which values a schedule's kind takes, instead of 'Invalid discriminator value'", () => {
    const [kind, extra] = problemsOf(cronJobInputSchema, {
      name: 'x',
      schedule: { type: 'cron', cron: '0 9 * * *' },
      actionId: 'a',
      foo: 1,
    });
    expect(kind).toEqual({
      pointer: '#/schedule/kind',
      detail: "must be 'form' or 'cron'",
      ja: "'form'、'cron' のいずれかにしてください",
    });
    expect(fieldSentence(kind!)).toBe("The field 'schedule/kind' must be 'form' or 'cron'.");
    expect(extra).toMatchObject({ pointer: '#', detail: "'foo' is not a field here" });
  });

  it('says a missing value is required and a wrong type what it must be', () => {
    const schema = z.object({ port: z.number(), tls: z.boolean() });
    expect(problemsOf(schema, { tls: 'yes' })).toEqual([
      { pointer: '#/port', detail: 'is required', ja: '入力してください' },
      { pointer: '#/tls', detail: 'must be true or false', ja: 'true か false を指定してください' },
    ]);
  });

  it('says lengths, counts and bounds in words and keeps messages a schema wrote itself', () => {
    const schema = z.object({
      password: z.string().min(12),
      name: z.string().min(1),
      tags: z.array(z.string()).max(2),
      limit: z.number().min(1).max(100),
    });
    expect(
      problemsOf(schema, { password: 'short', name: '', tags: ['a', 'b', 'c'], limit: 500 }).map(
        (e) => e.detail,
      ),
    ).toEqual([
      'must be at least 12 characters',
      'must not be empty',
      'must have at most 2 items',
      'must be at most 100',
    ]);
    expect(
      problemsOf(z.object({ m: z.enum(['GET', 'PUT'], { error: 'must be GET or PUT' }) }), { m: 'POST' }),
    ).toEqual([{ pointer: '#/m', detail: 'must be GET or PUT' }]);
    expect(problemsOf(projectInputSchema, { id: 'A B', name: 'x' })[0]!.detail).toBe(
      'must be 1-63 lower-case letters, digits, - or _, starting with a letter or digit',
    );
  });
});
