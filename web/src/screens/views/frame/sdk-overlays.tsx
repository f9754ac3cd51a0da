/**
 * Modal and drawer inside the view's frame (they cover the view, not the console): focus moves in
 * and stays in (Tab wraps), Escape or Close closes, focus returns to what opened it.
 *
 * The console makes the frame as tall as its content, so the frame has no viewport of its own to
 * centre in: a panel at the frame's top could be far above where the viewer is looking. The panel
 * opens level with what opened it (the button just clicked is on screen), and while it is open the
 * frame is at least tall enough to hold it, so the console does not cut it off.
 */
import { type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { text } from './sdk-texts.ts';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface OverlayProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  /** Buttons under the content (a Save next to Close). */
  footer?: ReactNode;
}

function Overlay({
  variant,
  open,
  onClose,
  title,
  children,
  footer,
}: OverlayProps & { variant: 'modal' | 'drawer' }) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const latestClose = useRef(onClose);
  latestClose.current = onClose;

  // Before the first paint, so the panel never shows at the top first.
  useLayoutEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    const element = panel.current;
    const openerTop =
      before && before !== document.body ? before.getBoundingClientRect().top + window.scrollY : 0;
    const top = Math.max(8, Math.round(openerTop) - 40);
    if (element) element.style.marginTop = `${top}px`;
    (element?.querySelector<HTMLElement>(focusable) ?? element)?.focus();
    const body = document.body;
    const growToPanel = () => {
      body.style.minHeight = element ? `${top + element.scrollHeight + 32}px` : '';
    };
    growToPanel();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(growToPanel) : undefined;
    if (element) observer?.observe(element);
    return () => {
      observer?.disconnect();
      body.style.minHeight = '';
      before?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      latestClose.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(focusable)];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="dg-backdrop">
      <div
        ref={panel}
        className={`dg-overlay dg-${variant}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dg-overlay-title">
          {title}
        </h2>
        <div className="dg-overlay-body">{children}</div>
        <div className="dg-overlay-footer">
          {footer}
          <button type="button" className="dg-button dg-secondary" onClick={() => latestClose.current()}>
            {text('close')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** A centred dialog over the view. */
export function Modal(props: OverlayProps) {
  return <Overlay variant="modal" {...props} />;
}

/** A panel at the right edge, the view's full height. */
export function Drawer(props: OverlayProps) {
  return <Overlay variant="drawer" {...props} />;
}
