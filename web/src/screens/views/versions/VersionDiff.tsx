/**
 * The line differences between two saved versions of a view: their whole input (name, permission,
 * definition or code) as indented JSON, removed lines marked "−" and added ones "+" — marked in
 * text too, so the difference does not depend on colour.
 */
import { useMemo } from 'react';
import { useT } from '../../../i18n/index.tsx';
import type { ViewVersion } from '../view-api.ts';
import { lineDiff } from './line-diff.ts';

/**
 * Keys sorted at every level: the store does not keep the order a definition was saved in, and a
 * reordered object is not a change (arrays keep their order: theirs is meaningful).
 */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const textOf = (version: ViewVersion) => JSON.stringify(sortedKeys(version.definition), null, 2);

export function VersionDiff({ before, after }: { before: ViewVersion; after: ViewVersion }) {
  const t = useT();
  const lines = useMemo(() => lineDiff(textOf(before), textOf(after)), [before, after]);
  const from = before.version;
  const to = after.version;
  if (!lines.some((line) => line.kind !== 'same')) {
    return <p className="muted">{t('views.versions.noDifference', { from, to })}</p>;
  }
  return (
    // A named region, focusable so a keyboard user can scroll a long diff.
    <section
      className="view-version-diff"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
      tabIndex={0}
      aria-label={t('views.versions.diffTitle', { from, to })}
    >
      <pre>
        {lines.map((line, index) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in the diff.
            key={index}
            className={`diff-line diff-line-${line.kind}`}
            data-kind={line.kind}
          >
            {line.kind === 'removed' ? (
              <span className="visually-hidden">{t('views.versions.removedLine')} </span>
            ) : line.kind === 'added' ? (
              <span className="visually-hidden">{t('views.versions.addedLine')} </span>
            ) : null}
            <span aria-hidden="true">
              {line.kind === 'removed' ? '− ' : line.kind === 'added' ? '+ ' : '  '}
            </span>
            {line.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </section>
  );
}
