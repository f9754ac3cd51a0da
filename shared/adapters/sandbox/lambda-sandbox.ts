/**
 * The AWS runtime's ScriptSandbox: invokes the sandbox function, answering each `actions.run` it
 * names by running the action here and invoking it again with the answer (decision 0039).
 */
import type { ScriptOutcome, ScriptRun, ScriptSandbox } from '../../domain/ports.ts';
import { answerHostRequest, hostErrorMessage } from './host-requests.ts';
import { defaultScriptMemoryBytes } from './quickjs-run.ts';
import type { ReplayAnswer, ReplayRequest, ReplayResponse } from './replay.ts';

export type InvokeSandbox = (request: ReplayRequest) => Promise<ReplayResponse>;

export function createLambdaSandbox(invoke: InvokeSandbox): ScriptSandbox {
  return {
    async run(script: ScriptRun): Promise<ScriptOutcome> {
      const started = Date.now();
      const calls: ReplayRequest['calls'] = [];
      for (;;) {
        const left = script.timeLimitMs - (Date.now() - started);
        if (left <= 0) {
          return {
            ok: false,
            error: {
              code: 'script_timeout',
              message: `The script ran longer than its time limit of ${script.timeLimitMs} ms.`,
            },
            logs: [],
            durationMs: Date.now() - started,
          };
        }
        let response: ReplayResponse;
        try {
          response = await invoke({
            code: script.code,
            globals: script.globals,
            timeLimitMs: left,
            memoryLimitBytes: script.memoryLimitBytes ?? defaultScriptMemoryBytes,
            canRunActions: script.runAction !== undefined,
            ...(script.database ? { database: script.database.mode } : {}),
            calls,
          });
        } catch {
          // Throttling, or a payload over Lambda's 6 MB: a run that read too much through its calls.
          return {
            ok: false,
            error: {
              code: 'script_error',
              message:
                'The script sandbox function could not be invoked (for example, the answers of its calls exceed 6 MB in all).',
            },
            logs: [],
            durationMs: Date.now() - started,
          };
        }
        if (response.kind === 'finished') return { ...response.outcome, durationMs: Date.now() - started };
        let answer: ReplayAnswer;
        try {
          answer = { value: await answerHostRequest(script, response.request) };
        } catch (error) {
          answer = { error: hostErrorMessage(error) };
        }
        calls.push({ request: response.request, answer });
      }
    },
  };
}

/** Invokes the sandbox function by name with the Lambda client (loaded on the first script). */
export function lambdaInvoker(functionName: string): InvokeSandbox {
  let client:
    | Promise<{ send(command: unknown): Promise<{ Payload?: Uint8Array; FunctionError?: string }> }>
    | undefined;
  let commandOf: ((input: object) => unknown) | undefined;
  return async (request) => {
    client ??= import('@aws-sdk/client-lambda').then((sdk) => {
      commandOf = (input) =>
        new sdk.InvokeCommand(input as ConstructorParameters<typeof sdk.InvokeCommand>[0]);
      return new sdk.LambdaClient({});
    });
    const lambda = await client;
    const answer = await lambda.send(
      commandOf!({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(request)) }),
    );
    if (answer.FunctionError || !answer.Payload) {
      // The function itself failed (e.g. its own memory ran out): the script is what caused it.
      return {
        kind: 'finished',
        outcome: {
          ok: false,
          error: {
            code: 'script_memory_limit',
            message: 'The script sandbox stopped: the script used more than it may.',
          },
          logs: [],
          durationMs: 0,
        },
      };
    }
    return JSON.parse(new TextDecoder().decode(answer.Payload)) as ReplayResponse;
  };
}
