/**
 * The bound-claim syntax of docs/authentication.md: tables of keys, patterns and claim values
 * (including the callers' real claim shapes), and properties checked with fast-check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundClaimProblems,
  claimAt,
  escapePattern,
  firstUnmatchedBoundClaim,
  matchesAnything,
  matchesBoundClaims,
  parseClaimKey,
  valueMatches,
} from '../../shared/domain/identity/bound-claims.ts';

describe('patterns', () => {
  it.each<[string, unknown, boolean]>([
    // Exact by default, whole value, case-sensitive.
    ['main', 'main', true],
    ['main', 'Main', false],
    ['main', 'main ', false],
    ['main', 'mainline', false],
    ['main', 'domain', false],
    ['', '', true],
    // `*` crosses `/` and `:` and may be empty.
    ['repo:acme/*', 'repo:acme/api:ref:refs/heads/main', true],
    ['repo:acme/*', 'repo:acme/', true],
    ['repo:acme/*', 'repo:acme', false],
    ['repo:acme/*', 'repo:acmex/api', false],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/api:ref:refs/heads/main', true],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/api:ref:refs/heads/main2', false],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/a:b:ref:refs/heads/main', true],
    ['*', '', true],
    ['*', 'anything: at/all', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a*a*a*b', 'a'.repeat(2000), false],
    ['*x', 'xxxxxy', false],
    ['*x', 'yyyyx', true],
    // `?` is exactly one character (a code point: an emoji is one).
    ['v?', 'v1', true],
    ['v?', 'v', false],
    ['v?', 'v10', false],
    ['v?', 'v😀', true],
    ['??', '😀', false],
    ['?', '\n', true],
    ['*', 'line\nbreak', true],
    // Escapes make wildcards literal.
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'aXb', false],
    ['what\\?', 'what?', true],
    ['what\\?', 'whatX', false],
    ['C:\\\\dir', 'C:\\dir', true],
    ['\\\\*', '\\anything', true],
    // Regular-expression characters are plain text.
    ['a.c', 'abc', false],
    ['a.c', 'a.c', true],
    ['[ab]', 'a', false],
    ['(x)+', '(x)+', true],
    ['^$', '^$', true],
    // Numbers and booleans compare by their JSON text.
    ['123456', 123456, true],
    ['123*', 1234, true],
    ['1.5', 1.5, true],
    ['1e+21', 1e21, true],
    ['1e21', 1e21, false],
    ['true', true, true],
    ['false', true, false],
    ['True', true, false],
    // Arrays: any element; objects, null and missing never.
    ['ops', ['dev', 'ops'], true],
    ['o*', ['dev', 'ops'], true],
    ['qa', ['dev', 'ops'], false],
    ['*', [], false],
    ['*', [{ a: 1 }], false],
    ['*', [['nested']], false],
    ['*', { a: 'b' }, false],
    ['*', null, false],
    ['null', null, false],
    ['*', undefined, false],
    ['[object Object]', { a: 1 }, false],
  ])('%j against %j is %s', (pattern, value, expected) => {
    expect(valueMatches(pattern, value)).toBe(expected);
  });

  it('escapes exactly the three special characters', () => {
    expect(escapePattern('a*b?c\\d.e')).toBe('a\\*b\\?c\\\\d.e');
  });

  it('recognises a pattern that constrains nothing', () => {
    expect(matchesAnything('*')).toBe(true);
    expect(matchesAnything('***')).toBe(true);
    expect(matchesAnything('*?')).toBe(false);
    expect(matchesAnything('\\*')).toBe(false);
    expect(matchesAnything('')).toBe(false);
  });
});

describe('keys', () => {
  const aws = {
    sub: 'arn:aws:iam::123456789012:role/deployer',
    'aws:PrincipalArn': 'arn:aws:iam::123456789012:role/deployer',
    'https://sts.amazonaws.com/': {
      aws_account: '123456789012',
      principal_tags: { team: 'payments' },
      'a/b': 'slash',
      'c~d': 'tilde',
    },
  };
  const k8s = {
    sub: 'system:serviceaccount:ci:deployer',
    'kubernetes.io': {
      namespace: 'ci',
      pod: { name: 'runner-1', uid: 'p-1' },
      serviceaccount: { name: 'deployer', uid: 's-1' },
    },
    groups: ['a', 'b'],
    '/odd': 'a top-level name that starts with a slash',
  };

  it.each<[string, object, unknown]>([
    ['sub', k8s, 'system:serviceaccount:ci:deployer'],
    ['aws:PrincipalArn', aws, 'arn:aws:iam::123456789012:role/deployer'],
    ['https://sts.amazonaws.com/', aws, aws['https://sts.amazonaws.com/']],
    ['/https:~1~1sts.amazonaws.com~1/aws_account', aws, '123456789012'],
    ['/https:~1~1sts.amazonaws.com~1/principal_tags/team', aws, 'payments'],
    ['/https:~1~1sts.amazonaws.com~1/a~1b', aws, 'slash'],
    ['/https:~1~1sts.amazonaws.com~1/c~0d', aws, 'tilde'],
    ['/kubernetes.io/namespace', k8s, 'ci'],
    ['/kubernetes.io/serviceaccount/name', k8s, 'deployer'],
    ['kubernetes.io', k8s, k8s['kubernetes.io']],
    ['/groups/1', k8s, 'b'],
    ['/groups/01', k8s, undefined],
    ['/groups/-', k8s, undefined],
    ['/groups/2', k8s, undefined],
    ['/~1odd', k8s, 'a top-level name that starts with a slash'],
    ['/sub', k8s, 'system:serviceaccount:ci:deployer'],
    ['/sub/x', k8s, undefined],
    ['/kubernetes.io/missing/deeper', k8s, undefined],
    ['/', { '': 'empty name' }, 'empty name'],
    ['/toString', {}, undefined],
    ['constructor', {}, undefined],
    ['/__proto__', {}, undefined],
  ])('%s reads %j', (key, claims, expected) => {
    expect(claimAt(claims, key)).toEqual(expected);
  });

  it('parses pointers by RFC 6901 (~1 before ~0)', () => {
    expect(parseClaimKey('/a~01')).toEqual(['a~1']);
    expect(parseClaimKey('/a~10')).toEqual(['a/0']);
    expect(parseClaimKey('a~1b')).toEqual(['a~1b']);
    expect(() => parseClaimKey('/a~2')).toThrow(/'~0' for '~'/);
    expect(() => parseClaimKey('/a~')).toThrow();
    expect(() => parseClaimKey('')).toThrow(/empty/);
  });
});

describe('matchesBoundClaims', () => {
  const github = {
    iss: 'https://token.actions.githubusercontent.com',
    sub: 'repo:octocat-123456/my-repo-456789:ref:refs/heads/main',
    repository: 'octocat/my-repo',
    repository_id: '456789',
    repository_owner_id: '123456',
    ref: 'refs/heads/main',
  };

  it('needs every rule to hold', () => {
    const rules = [
      { key: 'repository_id', pattern: '456789' },
      { key: 'ref', pattern: 'refs/heads/main' },
    ];
    expect(matchesBoundClaims(github, rules)).toBe(true);
    expect(matchesBoundClaims({ ...github, ref: 'refs/heads/dev' }, rules)).toBe(false);
    expect(firstUnmatchedBoundClaim({ ...github, ref: 'refs/heads/dev' }, rules)).toEqual(rules[1]);
    expect(matchesBoundClaims(github, [])).toBe(true);
  });

  it('accepts both GitHub sub forms with one pattern each', () => {
    const named = { key: 'sub', pattern: 'repo:octocat/my-repo:ref:refs/heads/main' };
    const immutable = { key: 'sub', pattern: 'repo:octocat-123456/my-repo-456789:ref:refs/heads/main' };
    expect(matchesBoundClaims(github, [immutable])).toBe(true);
    expect(matchesBoundClaims(github, [named])).toBe(false);
    expect(matchesBoundClaims({ ...github, sub: 'repo:octocat/my-repo:ref:refs/heads/main' }, [named])).toBe(
      true,
    );
  });

  it('refuses rather than allows when a stored rule does not parse', () => {
    expect(matchesBoundClaims({ sub: 'x' }, [{ key: 'sub', pattern: 'bad\\' }])).toBe(false);
    expect(matchesBoundClaims({ sub: 'x' }, [{ key: '/a~2', pattern: '*' }])).toBe(false);
  });
});

describe('boundClaimProblems', () => {
  it.each<[string, string, string[]]>([
    ['sub', 'repo:acme/*', []],
    ['', 'x', ['key: must not be empty']],
    [
      '/a~x',
      'x',
      ["key: has '~' not followed by 0 or 1; in a JSON Pointer write '~0' for '~' and '~1' for '/'"],
    ],
    ['sub', '', ['pattern: must not be empty']],
    ['sub', 'a\\', ['pattern: ends with a lone backslash; write \\\\']],
    ['sub', '\\d+', ["pattern: '\\d' is not an escape; only \\*, \\? and \\\\ are"]],
    ['k'.repeat(257), 'x', ['key: is longer than 256 characters']],
    ['sub', 'p'.repeat(1025), ['pattern: is longer than 1024 characters']],
  ])('%j = %j', (key, pattern, expected) => {
    expect(boundClaimProblems({ key, pattern }).map((p) => `${p.field}: ${p.detail}`)).toEqual(expected);
  });
});

describe('properties', () => {
  const plain = fc.string({ unit: 'grapheme-composite' }).filter((s) => !/[*?\\]/.test(s));
  const anyText = fc.string({ unit: 'grapheme-composite' });

  it('a pattern without wildcards matches exactly its own value', () => {
    fc.assert(
      fc.property(plain, anyText, (pattern, other) => {
        expect(valueMatches(pattern, pattern)).toBe(true);
        expect(valueMatches(pattern, other)).toBe(other === pattern);
      }),
    );
  });

  it('an escaped string matches itself and nothing else', () => {
    fc.assert(
      fc.property(anyText, anyText, (text, other) => {
        const pattern = escapePattern(text);
        expect(
          boundClaimProblems({ key: 'k', pattern }).filter((p) => p.detail !== 'must not be empty'),
        ).toEqual([]);
        expect(valueMatches(pattern, text)).toBe(true);
        expect(valueMatches(pattern, other)).toBe(other === text);
      }),
    );
  });

  // Patterns and values over a tiny alphabet, so matches and near-misses are both common.
  const globPart = fc.constantFrom('a', 'b', ':', '/', '*', '?', '\\*', '\\?', '\\\\');
  const glob = fc.array(globPart, { maxLength: 8 }).map((parts) => parts.join(''));
  const value = fc
    .array(fc.constantFrom('a', 'b', ':', '/', '*', '?', '\\'), { maxLength: 10 })
    .map((c) => c.join(''));

  /** The obvious (backtracking) regular expression for the same syntax, as a reference. */
  const reference = (pattern: string, text: string) => {
    const source = pattern.replace(/\\([*?\\])|([*?])|([^*?\\])/g, (_m, escaped, wildcard, literal) => {
      if (escaped) return escaped.replace(/[*?\\]/, '\\$&');
      if (wildcard) return wildcard === '*' ? '.*' : '.';
      return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    });
    return new RegExp(`^${source}$`, 'su').test(text);
  };

  it('agrees with a regular-expression reference', () => {
    fc.assert(
      fc.property(glob, value, (pattern, text) => {
        expect(valueMatches(pattern, text)).toBe(reference(pattern, text));
      }),
      { numRuns: 2000 },
    );
  });

  it('a glob never matches through the value of a different claim', () => {
    fc.assert(
      fc.property(glob, value, value, (pattern, ownValue, otherValue) => {
        fc.pre(!reference(pattern, ownValue));
        const claims = { own: ownValue, other: otherValue, nested: { own: otherValue } };
        expect(matchesBoundClaims(claims, [{ key: 'own', pattern }])).toBe(false);
        expect(matchesBoundClaims(claims, [{ key: '/own', pattern }])).toBe(false);
      }),
    );
  });

  it('a glob matches every value made by filling in its wildcards', () => {
    const filled = glob.chain((pattern) =>
      fc
        .array(fc.constantFrom('', 'x', ':/', 'a*'), { minLength: 20, maxLength: 20 })
        .map((fills) => ({ pattern, fills })),
    );
    fc.assert(
      fc.property(filled, ({ pattern, fills }) => {
        let index = 0;
        const text = pattern.replace(/\\([*?\\])|\*|\?/g, (match, escaped) => {
          if (escaped) return escaped;
          const fill = fills[index++]!;
          return match === '*' ? fill : fill.slice(0, 1) || 'y';
        });
        expect(valueMatches(pattern, text)).toBe(true);
      }),
    );
  });
});
