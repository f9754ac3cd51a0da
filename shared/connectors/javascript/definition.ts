/** The JavaScript kind's schemas (spec 1, 2.1): a script per action, nothing to connect to. */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';

/**
 * A JavaScript "data source" holds no connection: it stands for the sandbox, so JavaScript actions
 * fit the same shape as every other action (decision 0039). An optional limit below the run's own.
 */
export const javascriptConnectionSchema = z.object({
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(30 * 60_000)
    .optional(),
});

export const javascriptActionShape = {
  kind: z.literal('javascript'),
  /** The body of an async function: `await`, `return`, `actions.run`, `console.log`, `params`. */
  code: z.string().min(1).max(100_000),
};

export type JavascriptActionInput = ActionInput & { kind: 'javascript'; code: string };

export const javascriptActionTexts = (action: JavascriptActionInput): [string, string][] => [
  ['#/code', action.code],
];
