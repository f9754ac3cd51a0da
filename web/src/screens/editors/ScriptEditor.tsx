/**
 * The script editor of JavaScript actions and transformers: a monospace text area with line numbers
 * (errors name line and column) and Tab indenting, beside the list of actions the script may call;
 * choosing one inserts `await actions.run(…)` at the cursor. No highlighting library is bundled.
 */
import { type KeyboardEvent, useRef } from 'react';
import type { FieldControlProps } from '../../components/Field.tsx';
import { useT } from '../../i18n/index.tsx';

export interface CallableAction {
  id: string;
  name: string;
  parameters: string[];
}

interface Props {
  value: string;
  onChange(value: string): void;
  /** Field props (id, aria-*) from the surrounding Field. */
  control?: FieldControlProps;
  /** Actions the script may run with actions.run; absent: transformers, which cannot. */
  callable?: readonly CallableAction[];
  rows?: number;
}

const indent = '  ';

export function ScriptEditor({ value, onChange, control, callable, rows = 14 }: Props) {
  const t = useT();
  const area = useRef<HTMLTextAreaElement>(null);
  const lineCount = Math.max(rows, value.split('\n').length);

  const insert = (text: string) => {
    const element = area.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + text + value.slice(end));
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Tab indents; Escape then Tab leaves the editor (keyboard users are not trapped).
    if (event.key === 'Tab' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      if (area.current?.dataset.escaped === 'true') return;
      event.preventDefault();
      insert(indent);
    } else if (event.key === 'Escape' && area.current) area.current.dataset.escaped = 'true';
    else if (area.current) area.current.dataset.escaped = 'false';
  };

  return (
    <div className="script-editor">
      <div className="script-code">
        <pre className="script-gutter mono" aria-hidden="true">
          {Array.from({ length: lineCount }, (_, i) => i + 1).join('\n')}
        </pre>
        <textarea
          {...control}
          ref={area}
          className="mono script-text"
          rows={rows}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          wrap="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onScroll={(event) => {
            const gutter = event.currentTarget.previousElementSibling as HTMLElement | null;
            if (gutter) gutter.scrollTop = event.currentTarget.scrollTop;
          }}
        />
      </div>
      {callable ? (
        <aside className="script-callable" aria-label={t('editors.script.callable')}>
          <h4>{t('editors.script.callable')}</h4>
          {callable.length === 0 ? (
            <p className="muted small">{t('editors.script.noCallable')}</p>
          ) : (
            <ul>
              {callable.map((action) => (
                <li key={action.id}>
                  <button
                    type="button"
                    className="link-button mono"
                    title={t('editors.script.insertCall', { id: action.id })}
                    onClick={() => insert(callSnippet(action))}
                  >
                    {action.id}
                  </button>
                  <span className="muted small"> {action.name}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="muted small">{t('editors.script.callHint')}</p>
        </aside>
      ) : null}
    </div>
  );
}

export function callSnippet(action: CallableAction): string {
  const args = action.parameters.map((name) => `${name}: null`).join(', ');
  return `await actions.run(${JSON.stringify(action.id)}, { ${args} })`.replace('{  }', '{}');
}

/**
 * What a JavaScript action may call: every other action, except those reserved for another
 * JavaScript action (permission mode "only from JavaScript action X").
 */
export function callableActions(
  actions: readonly { id: string; name: string; parameters?: { name: string }[]; permission?: unknown }[],
  scriptActionId: string,
): CallableAction[] {
  return actions
    .filter((action) => action.id !== scriptActionId)
    .filter((action) => {
      const permission = action.permission as { mode?: string; javascriptActionId?: string } | undefined;
      return permission?.mode !== 'javascript_action' || permission.javascriptActionId === scriptActionId;
    })
    .map((action) => ({
      id: action.id,
      name: action.name,
      parameters: (action.parameters ?? []).map((p) => p.name),
    }));
}
