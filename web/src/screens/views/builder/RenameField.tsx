/**
 * The property panel's rename: a new id for the selected component, checked as it is typed
 * (pattern, not taken) and applied with Enter or the button; the builder rewrites the expressions
 * that refer to it (rename-component.ts).
 */
import { useState } from 'react';
import { Button } from '../../../components/index.ts';
import { useT } from '../../../i18n/index.tsx';
import type { ViewComponent } from '../view-api.ts';
import { renameProblem } from './rename-component.ts';

export function RenameField({
  root,
  id,
  onRename,
}: {
  root: ViewComponent;
  id: string;
  onRename(next: string): void;
}) {
  const t = useT();
  const [text, setText] = useState(id);
  const next = text.trim();
  const problem = renameProblem(root, id, next);
  const apply = () => {
    if (!problem && next !== id) onRename(next);
  };
  return (
    <div className="builder-field">
      <label htmlFor="builder-rename">{t('views.builder.rename.label')}</label>
      <div className="builder-row">
        <input
          id="builder-rename"
          className="mono"
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'builder-rename-problem' : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            }
          }}
        />
        <Button className="btn-small" disabled={Boolean(problem) || next === id} onClick={apply}>
          {t('views.builder.rename.apply')}
        </Button>
      </div>
      {problem ? (
        <p id="builder-rename-problem" className="field-error" role="alert">
          {t(`views.builder.rename.${problem}`, { id: next })}
        </p>
      ) : null}
    </div>
  );
}
