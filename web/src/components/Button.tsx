/** The one button: primary, secondary, danger or quiet; `busy` keeps its width and blocks double clicks. */
import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  busy?: boolean;
}

export function Button({
  variant = 'secondary',
  busy = false,
  className,
  disabled,
  type,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={['btn', `btn-${variant}`, busy ? 'is-busy' : '', className ?? ''].filter(Boolean).join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    />
  );
}
