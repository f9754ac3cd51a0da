/**
 * Every bad cell of a batch is reported at once, addressed `/rows/<n>/<parameter>`, up to a cap: a
 * file with its columns swapped can have 50,000 bad cells, the answer must stay far below the 6 MB a
 * Lambda response may carry, and checking rows past the cap would only burn time.
 */
import { DoguError, type FieldError } from '../errors.ts';

export const defaultMaxErrors = 1000;

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

export const rowPointer = (row: number, column?: string) =>
  column === undefined ? `/rows/${row}` : `/rows/${row}/${escapeToken(column)}`;

export class BatchErrors {
  readonly list: FieldError[] = [];
  private more = false;
  private stoppedAt: number | undefined;

  constructor(private readonly max = defaultMaxErrors) {}

  add(pointer: string, detail: string): void {
    if (this.list.length < this.max) this.list.push({ pointer, detail });
    else this.more = true;
  }

  /** True once the cap is reached: the caller stops checking and says where with `stopAt`. */
  get full(): boolean {
    return this.list.length >= this.max;
  }

  stopAt(rowNumber: number): void {
    this.more = true;
    this.stoppedAt = rowNumber;
  }

  /** Throws argument_invalid (422) listing the errors, when there are any. */
  throwIfAny(what: string): void {
    if (this.list.length === 0) return;
    const errors = [...this.list];
    if (this.more) {
      const unchecked =
        this.stoppedAt === undefined ? '' : `; rows from row ${this.stoppedAt} on were not checked`;
      errors.push({
        pointer: '/rows',
        detail: `Only the first ${this.max} errors are listed${unchecked}. Fix these and send the batch again.`,
      });
    }
    const summary =
      errors.length === 1
        ? errors[0]!.detail
        : `${what} has ${this.more ? 'more than ' : ''}${this.list.length} errors: each is listed in errors.`;
    throw new DoguError('argument_invalid', summary, { errors });
  }
}

/** One problem with the batch as a whole (empty, too many rows): thrown at once. */
export const batchRefused = (detail: string) =>
  new DoguError('argument_invalid', detail, { errors: [{ pointer: '/rows', detail }] });
