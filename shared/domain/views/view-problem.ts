/** One problem of a view definition, as the save refuses it and `dogu apply` reports it. */
import type { FieldError } from '../errors.ts';

/** A field error with its Japanese text (and, for syntax errors, where in the field's text). */
export interface ViewProblem extends FieldError {
  ja: string;
  line?: number;
  column?: number;
}
