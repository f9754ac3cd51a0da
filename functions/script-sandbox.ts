/**
 * The AWS script sandbox (decision 0039): QuickJS in a function of its own whose role grants
 * nothing and whose environment holds nothing of Dogu's. Invoked only by the executing functions.
 */
import { type ReplayRequest, runReplaying } from '../shared/adapters/sandbox/replay.ts';

export const handler = (request: ReplayRequest) => runReplaying(request);
