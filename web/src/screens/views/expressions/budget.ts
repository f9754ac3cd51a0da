/**
 * What one evaluation may make and handle inside built-ins, beside its step and nesting limits
 * (evaluate.ts). A step is one node of the expression, but one step of `s.padStart(n)`, `a.join()`
 * or `json(v)` may build millions of characters: `'x'.padStart(10000).split('').map(a =>
 * 'x'.padStart(10000)).join('')` froze a tab within the step budget (issue 25). So each built-in
 * says, before it runs, how much it will make or go through; that is charged against one budget
 * per evaluation, and a string or array past its size limit is refused before it is made. Time and
 * memory of an evaluation are then bounded by the steps plus the budget, whatever the expression.
 *
 * Values shared many times (`[1..30].reduce(a => [a, a], 0)` doubles at every step) are measured
 * as the text they would print as, each distinct array or object walked once (memoised), so their
 * blow-up is seen without being expanded.
 */
import { ExpressionError } from './expression-error.ts';

export const budgetLimits = {
  /** Longest string an expression may make (a 5 MB result as JSON is past what a view shows). */
  maxStringLength: 1_000_000,
  /** Most items of an array an expression may make (callbacks hit the step limit before this). */
  maxArrayLength: 100_000,
  /** Characters and items the built-ins of one evaluation may make or go through, in total. */
  maxWork: 10_000_000,
  /** Deepest nesting of a value an expression turns into text or makes. */
  maxValueDepth: 100,
} as const;

export type BudgetLimits = { [K in keyof typeof budgetLimits]: number };

/** Measured once per value and evaluation: its printed size, its members, and how deep it nests. */
interface Measure {
  size: number;
  members: number;
  height: number;
}

interface Frame {
  node: object;
  values: unknown[];
  next: number;
  size: number;
  members: number;
  height: number;
}

const formatted = (n: number) => n.toLocaleString('en-US');

export class Budget {
  private used = 0;
  private readonly measured = new Map<object, Measure>();

  constructor(readonly limits: BudgetLimits = budgetLimits) {}

  /** What this evaluation's built-ins have been charged so far. */
  get spent(): number {
    return this.used;
  }

  /** Charges `units` characters or items that `what` (a built-in's name) makes or goes through. */
  charge(units: number, what: string): void {
    this.used += units;
    if (!(this.used <= this.limits.maxWork)) {
      const max = formatted(this.limits.maxWork);
      throw new ExpressionError(
        'tooMuchWork',
        `The expression does too much work: its built-ins would make or go through more than ${max} characters and items (at ${what}).`,
        { max, what },
      );
    }
  }

  /** A string of `length` characters `what` is about to make: refused past the limit, else charged. */
  string(length: number, what: string): void {
    this.fits(length, what);
    this.charge(length, what);
  }

  /** Refuses a string longer than the limit without charging it (a rope of parts charged already). */
  fits(length: number, what: string): void {
    if (!(length <= this.limits.maxStringLength)) {
      const max = formatted(this.limits.maxStringLength);
      throw new ExpressionError(
        'stringTooLong',
        `${what} would make a string longer than ${max} characters.`,
        { max, what },
      );
    }
  }

  /** An array of `length` items `what` is about to make: refused past the limit, else charged. */
  array(length: number, what: string): void {
    this.fitsArray(length, what);
    this.charge(length, what);
  }

  /** Refuses an array longer than the limit without charging it (its items were charged). */
  fitsArray(length: number, what: string): void {
    if (!(length <= this.limits.maxArrayLength)) {
      const max = formatted(this.limits.maxArrayLength);
      throw new ExpressionError('arrayTooLong', `${what} would make an array of more than ${max} items.`, {
        max,
        what,
      });
    }
  }

  /** A value nesting deeper than the limit (found while measuring or evaluating). */
  tooDeep(what: string): ExpressionError {
    const max = this.limits.maxValueDepth;
    return new ExpressionError('tooDeep', `${what}: a value nests more than ${max} levels deep.`, {
      max,
      what,
    });
  }

  /**
   * An upper bound of the length of `value` as text: its JSON, which is never shorter than what
   * `String(array)` or `join` print (an object prints at least `[object Object]`). Charges one unit
   * per member of each distinct array or object; refuses nesting past `maxValueDepth`.
   */
  textSize(value: unknown, what: string): number {
    return this.measure(value, what).size;
  }

  /** As `textSize`, for `JSON.stringify(value, null, 2)`: each member on a line of its own, indented. */
  prettyTextSize(value: unknown, what: string): number {
    const { size, members, height } = this.measure(value, what);
    return size + members * (1 + 2 * height);
  }

  measure(value: unknown, what: string): Measure {
    if (!isContainer(value)) return { size: primitiveSize(value), members: 0, height: 0 };
    const known = this.measured.get(value);
    if (known) return known;
    const stack: Frame[] = [this.open(value, what)];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.next < frame.values.length) {
        const child = frame.values[frame.next++];
        if (!isContainer(child)) {
          frame.size += primitiveSize(child) + 1;
          frame.members += 1;
          continue;
        }
        const seen = this.measured.get(child);
        if (seen) {
          if (stack.length + seen.height > this.limits.maxValueDepth) throw this.tooDeep(what);
          add(frame, seen);
        } else {
          // A cycle (never in JSON data) also ends here, as a value nesting too deep.
          if (stack.length >= this.limits.maxValueDepth) throw this.tooDeep(what);
          stack.push(this.open(child, what));
        }
        continue;
      }
      stack.pop();
      const result: Measure = {
        size: Array.isArray(frame.node) ? frame.size : Math.max(objectText, frame.size),
        members: frame.members,
        height: frame.height,
      };
      this.measured.set(frame.node, result);
      const parent = stack[stack.length - 1];
      if (parent) add(parent, result);
    }
    return this.measured.get(value)!;
  }

  private open(node: object, what: string): Frame {
    const isArray = Array.isArray(node);
    const values = isArray ? (node as unknown[]) : isPlainObject(node) ? Object.values(node) : [];
    this.charge(values.length + 1, what);
    let keys = 0;
    if (!isArray && isPlainObject(node)) for (const key of Object.keys(node)) keys += key.length + 3;
    return { node, values, next: 0, size: 2 + keys, members: 0, height: 1 };
  }
}

/** `[object Object]`: what an object prints as inside `join` or `String()`. */
const objectText = 15;

function add(parent: Frame, child: Measure): void {
  parent.size += child.size + 1;
  parent.members += child.members + 1;
  parent.height = Math.max(parent.height, child.height + 1);
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function primitiveSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'bigint':
      return String(value).length;
    case 'boolean':
      return 5;
    default:
      return 4;
  }
}
