/**
 * The one error an expression evaluation throws: its code picks the viewer's message
 * (views.expr.<code> in web/src/i18n), its vars fill it. A module of its own so the evaluator and
 * its budget (budget.ts) both use it without importing each other.
 */
export type ExpressionErrorCode =
  | 'syntax'
  | 'unknownName'
  /** A property read of undefined/null: not a wrong name, a value not there yet (no row selected, no result). */
  | 'emptyRead'
  | 'forbiddenProperty'
  | 'notAFunction'
  | 'unsupported'
  | 'tooComplex'
  | 'tooDeep'
  | 'tooLong'
  | 'stringTooLong'
  | 'arrayTooLong'
  | 'tooMuchWork';

/** A problem with an expression; `key`/`vars` are the i18n message (views.expr.<code>). */
export class ExpressionError extends Error {
  readonly code: ExpressionErrorCode;
  readonly vars: Record<string, string | number>;
  constructor(code: ExpressionErrorCode, message: string, vars: Record<string, string | number> = {}) {
    super(message);
    this.name = 'ExpressionError';
    this.code = code;
    this.vars = vars;
  }
  get key(): string {
    return `views.expr.${this.code}`;
  }
}
