/** The builder's labelled text fields, shared by the property panels. */
import { useState } from 'react';

export function Text({
  label,
  value,
  onChange,
  mono,
  multiline,
}: {
  label: string;
  value: string | undefined;
  onChange(v: string): void;
  mono?: boolean;
  multiline?: boolean;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is one of the two branches below
    <label className="builder-field">
      <span>{label}</span>
      {multiline ? (
        <textarea
          aria-label={label}
          className={mono ? 'mono' : undefined}
          rows={4}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          aria-label={label}
          className={mono ? 'mono' : undefined}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </label>
  );
}

/** Lines kept as typed (an empty line or a half-typed column must not vanish while typing). */
export function LinesField({
  label,
  initial,
  onChange,
}: {
  label: string;
  initial: string;
  onChange(text: string): void;
}) {
  const [text, setText] = useState(initial);
  return (
    <label className="builder-field">
      <span>{label}</span>
      <textarea
        aria-label={label}
        className="mono"
        rows={4}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(e.target.value);
        }}
      />
    </label>
  );
}
