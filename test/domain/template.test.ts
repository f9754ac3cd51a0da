import { describe, expect, it } from 'vitest';
import { DoguError } from '../../shared/domain/errors.ts';
import { compileSql, referencesIn } from '../../shared/domain/template.ts';

const known = new Set(['status', 'limit', 'currentUser.email']);

describe('compileSql', () => {
  it('replaces each reference with a numbered placeholder and lists what to bind', () => {
    const compiled = compileSql('SELECT * FROM orders WHERE status = {{ status }} LIMIT {{limit}}', known);
    expect(compiled).toEqual({
      text: 'SELECT * FROM orders WHERE status = $1 LIMIT $2',
      references: ['status', 'limit'],
    });
  });

  it('binds a repeated reference once and reuses its placeholder', () => {
    const compiled = compileSql('SELECT {{ status }}, {{ limit }}, {{ status }}', known);
    expect(compiled).toEqual({ text: 'SELECT $1, $2, $1', references: ['status', 'limit'] });
  });

  it('accepts dotted system references', () => {
    expect(compileSql('SELECT {{ currentUser.email }}', known).references).toEqual(['currentUser.email']);
  });

  it('never puts a value into the text', () => {
    const compiled = compileSql("SELECT '{{ status }}' || {{ status }}", known);
    expect(compiled.text).toBe("SELECT '$1' || $1");
    expect(compiled.text).not.toContain('status');
  });

  it('refuses a reference to an unknown name and names it', () => {
    expect(() => compileSql('SELECT {{ nope }}', known)).toThrowError(DoguError);
    expect(() => compileSql('SELECT {{ nope }}', known)).toThrowError("'{{ nope }}'");
  });

  it('leaves text without references untouched', () => {
    expect(compileSql('SELECT 1', known)).toEqual({ text: 'SELECT 1', references: [] });
  });

  it('lists references in order of appearance', () => {
    expect(referencesIn('{{ a }} {{b.c}} {{ a }}')).toEqual(['a', 'b.c', 'a']);
  });
});
