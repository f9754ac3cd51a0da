/**
 * A request body's validation problems said in words, in English and Japanese, one per field: what
 * the field must be ("is required", "must be a number", "must be 'form' or 'cron'") rather than the
 * validator's own wording ("Invalid input: expected number, received undefined"). A message a
 * schema wrote itself (a refine, a regex's explanation) is kept as written.
 */
import type * as z from 'zod';
import type { FieldError } from './errors.ts';

type Issue = z.core.$ZodIssue;

const typeNames: Record<string, [string, string]> = {
  string: ['text', '文字列で指定してください'],
  number: ['a number', '数値で指定してください'],
  int: ['a whole number', '整数で指定してください'],
  boolean: ['true or false', 'true か false を指定してください'],
  object: ['an object', 'オブジェクトで指定してください'],
  array: ['a list', '配列で指定してください'],
};

const quoted = (values: readonly unknown[]) => values.map((v) => `'${String(v)}'`);
const orList = (values: string[]) =>
  values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/** A message the validator wrote itself (not the schema's author): those are replaced. */
const generated = /^(Invalid|Too (small|big)|Unrecognized key)/;

/** The value at an issue's path in the body that was checked (undefined when it is not there). */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function words(issue: Issue, body: unknown): { detail: string; ja?: string } {
  // The schema's author said it already (`z.enum(…, { error: 'must be GET or PUT' })`).
  if (!generated.test(issue.message)) return { detail: issue.message };
  switch (issue.code) {
    case 'invalid_type': {
      if (valueAt(body, issue.path) === undefined) return { detail: 'is required', ja: '入力してください' };
      const [en, ja] = typeNames[issue.expected] ?? [issue.expected, `${issue.expected} で指定してください`];
      return { detail: `must be ${en}`, ja };
    }
    case 'invalid_union': {
      // A discriminated union names the member that chooses and the values it takes.
      const choices = (issue as { options?: unknown }).options;
      if ('discriminator' in issue && Array.isArray(choices)) {
        const options = quoted(choices);
        return {
          detail: `must be ${orList(options)}`,
          ja: `${options.join('、')} のいずれかにしてください`,
        };
      }
      return { detail: 'does not match any of the accepted forms', ja: '受け付ける形のどれにも合いません' };
    }
    case 'invalid_value': {
      const options = quoted(issue.values);
      return { detail: `must be ${orList(options)}`, ja: `${options.join('、')} のいずれかにしてください` };
    }
    case 'unrecognized_keys': {
      const keys = quoted(issue.keys);
      return {
        detail: `${orList(keys)} ${keys.length > 1 ? 'are not fields' : 'is not a field'} here`,
        ja: `${keys.join('、')} という項目はありません`,
      };
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = Number(small ? issue.minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'string') {
        if (small && limit === 1) return { detail: 'must not be empty', ja: '入力してください' };
        return small
          ? { detail: `must be at least ${limit} characters`, ja: `${limit} 文字以上にしてください` }
          : { detail: `must be at most ${limit} characters`, ja: `${limit} 文字以内にしてください` };
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return small
          ? {
              detail: `must have at least ${limit} item${limit === 1 ? '' : 's'}`,
              ja: `${limit} 個以上指定してください`,
            }
          : {
              detail: `must have at most ${limit} item${limit === 1 ? '' : 's'}`,
              ja: `${limit} 個以内にしてください`,
            };
      }
      if (small) {
        return inclusive
          ? { detail: `must be at least ${limit}`, ja: `${limit} 以上にしてください` }
          : { detail: `must be more than ${limit}`, ja: `${limit} より大きくしてください` };
      }
      return inclusive
        ? { detail: `must be at most ${limit}`, ja: `${limit} 以下にしてください` }
        : { detail: `must be less than ${limit}`, ja: `${limit} より小さくしてください` };
    }
    case 'invalid_format': {
      if (issue.format === 'email')
        return { detail: 'must be an e-mail address', ja: 'メールアドレスを入力してください' };
      if (issue.format === 'url') return { detail: 'must be a URL', ja: 'URL を入力してください' };
      return { detail: `must be in ${issue.format} form`, ja: `${issue.format} の形式にしてください` };
    }
    default:
      return { detail: issue.message };
  }
}

/** JSON Pointer of an issue under `base` (`#` or `#/params`), with `~` and `/` escaped. */
export function issuePointer(base: string, path: readonly PropertyKey[]): string {
  return [base, ...path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1'))].join('/');
}

/** `body`: what was checked, to tell a missing value from a wrong one. */
export function readableIssues(issues: readonly Issue[], body: unknown, base = '#'): FieldError[] {
  return issues.map((issue) => {
    const { detail, ja } = words(issue, body);
    return { pointer: issuePointer(base, issue.path), detail, ...(ja ? { ja } : {}) };
  });
}

/** One field's problem as the Problem's detail: "The field 'schedule/kind' must be 'form' or 'cron'." */
export function fieldSentence(error: FieldError): string {
  const path = error.pointer.replace(/^#\/?/, '');
  return path ? `The field '${path}' ${error.detail}.` : `The body ${error.detail}.`;
}
