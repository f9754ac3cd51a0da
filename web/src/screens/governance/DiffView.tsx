/**
 * Field-level differences between two versions of an action (`[{path, before, after}]` from the
 * API): one entry per changed field, before on the left and after on the right. Multi-line text
 * (SQL) is compared line by line so a one-line change stands out.
 */
import { useT } from '../../i18n/index.tsx';
import type { DefinitionChange } from './api.ts';

function display(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/** Lines of `text` that the other side does not have (a simple, order-blind marker, enough for SQL edits). */
function linesOnlyIn(text: string, other: string): Set<number> {
  const others = new Set(other.split('\n'));
  const marked = new Set<number>();
  text.split('\n').forEach((line, index) => {
    if (!others.has(line)) marked.add(index);
  });
  return marked;
}

function Side({ value, other, kind }: { value: unknown; other: unknown; kind: 'before' | 'after' }) {
  const t = useT();
  if (value === undefined) {
    return (
      <div className={`diff-${kind}`} data-side={kind}>
        <span className="muted">
          {t(kind === 'before' ? 'governance.diff.added' : 'governance.diff.removed')}
        </span>
      </div>
    );
  }
  const text = display(value);
  const marked = linesOnlyIn(text, display(other));
  return (
    <pre className={`diff-${kind}`} data-side={kind}>
      <span className="visually-hidden">{t(`governance.diff.${kind}`)}: </span>
      {text.split('\n').map((line, index) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in the text.
          key={index}
          className={
            marked.has(index) ? `diff-line diff-line-${kind === 'before' ? 'removed' : 'added'}` : 'diff-line'
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function DiffView({ changes, from, to }: { changes: DefinitionChange[]; from: number; to: number }) {
  const t = useT();
  if (changes.length === 0) return <p className="muted">{t('governance.diff.none', { from, to })}</p>;
  return (
    <section className="diff-view" aria-label={t('governance.diff.title', { from, to })}>
      <div className="diff-sides muted small" aria-hidden="true">
        <span>{t('governance.diff.versionN', { n: from })}</span>
        <span>{t('governance.diff.versionN', { n: to })}</span>
      </div>
      {changes.map((change) => (
        <section key={change.path} className="diff-entry" aria-label={change.path}>
          <div className="diff-path mono">{change.path || t('governance.diff.whole')}</div>
          <div className="diff-sides">
            <Side value={change.before} other={change.after} kind="before" />
            <Side value={change.after} other={change.before} kind="after" />
          </div>
        </section>
      ))}
    </section>
  );
}
