/**
 * A labelled input with its inline error and hint. The child input gets the id, `aria-invalid`
 * and `aria-describedby` wiring, so screen readers read the label, the hint and the error.
 */
import { cloneElement, isValidElement, type ReactElement, type ReactNode, useId } from 'react';
import { useT } from '../i18n/index.tsx';

export interface FieldControlProps {
  id: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
}

export interface FieldProps {
  label: ReactNode;
  required?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  /** A group of inputs (array and tuple editors): a fieldset with a legend instead of a label. */
  group?: boolean;
  className?: string;
  children: ReactElement<FieldControlProps> | ((control: FieldControlProps) => ReactNode);
}

export function Field({ label, required, error, hint, group, className, children }: FieldProps) {
  const t = useT();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const control: FieldControlProps = {
    id,
    ...(error ? { 'aria-invalid': true } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(required ? { 'aria-required': true } : {}),
  };
  const rendered =
    typeof children === 'function'
      ? children(control)
      : isValidElement(children)
        ? cloneElement(children, control)
        : children;
  const labelContent = (
    <>
      {label}
      {required ? (
        <span className="field-required" title={t('field.required')}>
          {' *'}
          <span className="visually-hidden">{t('field.required')}</span>
        </span>
      ) : null}
    </>
  );
  const extras = (
    <>
      {hint ? (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={errorId} role="alert">
          {error}
        </div>
      ) : null}
    </>
  );
  if (group) {
    return (
      <fieldset
        className={['field', 'field-group', error ? 'has-error' : '', className ?? ''].join(' ')}
        aria-describedby={describedBy}
      >
        <legend className="field-label">{labelContent}</legend>
        {rendered}
        {extras}
      </fieldset>
    );
  }
  return (
    <div className={['field', error ? 'has-error' : '', className ?? ''].join(' ')}>
      <label className="field-label" htmlFor={id}>
        {labelContent}
      </label>
      {rendered}
      {extras}
    </div>
  );
}
