/** Tabs per the WAI-ARIA pattern: arrow keys move between tabs, only the active one is in the Tab order. */
import { type ReactNode, useId, useRef } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
  /** A function renders only when its tab is shown (costly views such as a large JSON text). */
  content: ReactNode | (() => ReactNode);
}

export function Tabs({
  tabs,
  active,
  onChange,
  label,
}: {
  tabs: TabItem[];
  active: string;
  onChange(id: string): void;
  label: string;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const current = tabs.find((tab) => tab.id === active) ?? tabs[0];
  const move = (offset: number) => {
    const index = tabs.findIndex((tab) => tab.id === current?.id);
    const next = tabs[(index + offset + tabs.length) % tabs.length];
    if (!next) return;
    onChange(next.id);
    list.current?.querySelector<HTMLElement>(`[data-tab="${CSS.escape(next.id)}"]`)?.focus();
  };
  return (
    <div className="tabs">
      <div
        className="tab-list"
        role="tablist"
        aria-label={label}
        ref={list}
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight') move(1);
          else if (event.key === 'ArrowLeft') move(-1);
          else return;
          event.preventDefault();
        }}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            data-tab={tab.id}
            id={`${base}-tab-${tab.id}`}
            aria-selected={tab.id === current?.id}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={tab.id === current?.id ? 0 : -1}
            className="tab"
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current ? (
        <div
          className="tab-panel"
          role="tabpanel"
          id={`${base}-panel-${current.id}`}
          aria-labelledby={`${base}-tab-${current.id}`}
        >
          {typeof current.content === 'function' ? current.content() : current.content}
        </div>
      ) : null}
    </div>
  );
}
