/**
 * A button that opens a small panel of links or commands (`<details>`/`<summary>`), with the keys
 * people expect (WAI-ARIA Authoring Practices, menu button): Escape closes it and returns focus to
 * the button; a click elsewhere or focus leaving closes it; with `menu`, the panel is a `role=menu`
 * whose items (`role=menuitem`) take the arrow keys, Home and End, and the first item gets focus
 * when it opens.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

export interface DisclosureMenuProps {
  className?: string;
  panelClassName?: string;
  /** What the button shows; its accessible name unless `label` is given. */
  summary: ReactNode;
  /** A name for a button that shows only a symbol (⋯). Leave it out when the button shows words. */
  label?: string;
  /** The panel is a menu of `role=menuitem` commands (arrow keys move between them). */
  menu?: boolean;
  children: ReactNode;
}

const itemSelector = '[role="menuitem"]:not([disabled])';

export function DisclosureMenu({
  className,
  panelClassName,
  summary,
  label,
  menu,
  children,
}: DisclosureMenuProps) {
  const ref = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const closeOutside = (event: Event) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    const focusFirst = () => {
      if (menu && details.open) details.querySelector<HTMLElement>(itemSelector)?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('focusin', closeOutside);
    details.addEventListener('toggle', focusFirst);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('focusin', closeOutside);
      details.removeEventListener('toggle', focusFirst);
    };
  }, [menu]);

  const onKeyDown = (event: KeyboardEvent<HTMLDetailsElement>) => {
    const details = event.currentTarget;
    if (event.key === 'Escape' && details.open) {
      event.preventDefault();
      event.stopPropagation();
      details.open = false;
      details.querySelector('summary')?.focus();
      return;
    }
    if (!menu || !details.open) return;
    const items = [...details.querySelectorAll<HTMLElement>(itemSelector)];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'ArrowDown'
        ? items[(at + 1) % items.length]
        : event.key === 'ArrowUp'
          ? items[(at - 1 + items.length) % items.length]
          : event.key === 'Home'
            ? items[0]
            : event.key === 'End'
              ? items.at(-1)
              : undefined;
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  return (
    <details ref={ref} className={className} onKeyDown={onKeyDown}>
      <summary
        {...(label ? { 'aria-label': label } : {})}
        {...(menu ? { 'aria-haspopup': 'menu' as const } : {})}
      >
        {summary}
      </summary>
      <div className={panelClassName} {...(menu ? { role: 'menu' } : {})}>
        {children}
      </div>
    </details>
  );
}

/** Closes the menu an item sits in (after a command ran). */
export function closeMenuOf(element: Element): void {
  const details = element.closest('details');
  if (details) {
    details.open = false;
    details.querySelector('summary')?.focus();
  }
}
