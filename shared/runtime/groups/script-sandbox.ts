/**
 * Where JavaScript runs (decision 0039): on AWS a function of its own whose role grants nothing,
 * invoked through the Lambda client (loaded with this group); locally a pool of worker threads.
 */
import type { ScriptSandbox } from '../../domain/ports.ts';
import type { ServiceGroup } from '../services.ts';

export const scriptSandbox: ServiceGroup<{ sandbox: ScriptSandbox }> = {
  name: 'script-sandbox',
  pick: ({ sandbox }) => ({ sandbox }),
  async createOnAws() {
    const { createLambdaSandbox, lambdaInvoker } = await import('../../adapters/sandbox/lambda-sandbox.ts');
    return {
      sandbox: createLambdaSandbox(lambdaInvoker(process.env.DOGU_SANDBOX_FUNCTION ?? 'dogu-script-sandbox')),
    };
  },
};
