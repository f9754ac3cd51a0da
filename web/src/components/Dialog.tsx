/**
 * A modal confirmation: focus moves in and stays in (Tab wraps), Esc cancels, focus returns to
 * where it was. Destructive actions pass `danger` so the confirm button says so visually.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../i18n/index.tsx';
import { Button } from './Button.tsx';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm?: () => void;
  onCancel: () => void;
  /** Without `onConfirm` the dialog only shows content with a close button. */
  footer?: ReactNode;
  /** Extra class of the panel (a view's drawer slides in at the side). */
  className?: string;
}

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog(props: DialogProps) {
  const {
    open,
    title,
    children,
    confirmLabel,
    cancelLabel,
    danger,
    busy,
    onConfirm,
    onCancel,
    footer,
    className,
  } = props;
  const t = useT();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    const first =
      panel.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.current?.querySelector<HTMLElement>(focusable);
    (first ?? panel.current)?.focus();
    return () => before?.focus?.();
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
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

  // Drawn at the end of <body>: a dialog opened from inside a contained box (the result table's
  // `contain: strict` scroller) would otherwise be positioned and clipped by that box.
  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside cancels, as Esc and the Cancel button do.
    <div
      className="dialog-backdrop"
      role="presentation"
      onMouseDown={(e) => e.target === e.currentTarget && onCancel()}
    >
      <div
        ref={panel}
        className={className ? `dialog ${className}` : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">
          {footer ?? (
            <>
              <Button onClick={onCancel} data-autofocus={danger ? true : undefined}>
                {cancelLabel ?? t(onConfirm ? 'common.cancel' : 'common.close')}
              </Button>
              {onConfirm ? (
                <Button variant={danger ? 'danger' : 'primary'} busy={busy} onClick={onConfirm}>
                  {confirmLabel ?? t('common.confirm')}
                </Button>
              ) : null}
            </>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
