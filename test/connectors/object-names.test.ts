/** Bucket and key templates: a value fills its place and never another bucket or folder. */
import { describe, expect, it } from 'vitest';
import {
  bucketName,
  gcsBucketRule,
  objectKey,
  s3BucketRule,
} from '../../shared/connectors/object-storage/object-names.ts';

const values = (map: Record<string, unknown>) => (reference: string) => map[reference];

describe('object names', () => {
  it('fills bucket names from parameters, vars and currentUser, refusing what is no bucket name', () => {
    expect(bucketName('{{ vars.env }}-files', values({ 'vars.env': 'prod' }), s3BucketRule)).toBe(
      'prod-files',
    );
    for (const bad of ['a/b', 'files?x=1', 'files#x', 'Files', 'a', 'my bucket', 'a..b', ''])
      expect(() => bucketName('{{ b }}', values({ b: bad }), s3BucketRule), bad).toThrow(/bucket/);
    expect(bucketName('{{ b }}', values({ b: 'logs_2026' }), gcsBucketRule)).toBe('logs_2026');
    expect(() => bucketName('{{ b }}', values({ b: 'logs_2026' }), s3BucketRule)).toThrow(
      /not a bucket name/,
    );
  });

  it('keeps keys inside their folder: dot segments and control characters refused, ? # % kept', () => {
    const key = (value: unknown, template = 'users/{{ currentUser.id }}/{{ name }}') =>
      objectKey(template, values({ 'currentUser.id': 'u1', name: value }));
    expect(key('a?b#c%2e.txt')).toBe('users/u1/a?b#c%2e.txt');
    expect(key('sub/dir/x')).toBe('users/u1/sub/dir/x');
    for (const bad of ['../u2/x', '..', '.', 'x/../../y', '..\\u2', 'a\nb', 'a\u0000'])
      expect(() => key(bad), JSON.stringify(bad)).toThrow(/segment|control character/);
    expect(() => key('x'.repeat(1100))).toThrow(/longer than 1024 bytes/);
    expect(objectKey('{{ prefix }}', values({ prefix: '' }), { allowEmpty: true })).toBe('');
    expect(() => objectKey('{{ prefix }}', values({ prefix: '' }))).toThrow(/is empty/);
  });
});
