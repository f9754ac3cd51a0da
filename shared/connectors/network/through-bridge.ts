/**
 * What the engines do for a run through a bridge: give the kind the bridge's network, and end the
 * run at the bridge's own time-out when that comes before the action's limit (spec 7.3), with the
 * same `execution_timeout` answer naming the bridge. The kind sees its signal abort and cancels as
 * at any deadline (the query is cancelled on the server, the tunnel closes).
 */
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { ConnectionCheck, EngineRun } from '../../domain/ports.ts';
import type { RuntimeCheck, RuntimeRun } from '../connector.ts';
import { bridgeNetwork, probe } from './bridge-network.ts';
import { BridgeError, type BridgeHop } from './bridge-tunnel.ts';

export async function runThroughBridge(
  run: EngineRun,
  runKind: (run: RuntimeRun) => Promise<StatementResult[]>,
): Promise<StatementResult[]> {
  const bridge = run.bridge;
  if (!bridge) return runKind(run);
  const network = bridgeNetwork(bridge, run.key);
  const limitMs = await network.timeoutMs(run.signal);
  const left = run.deadlineAt - Date.now();
  if (limitMs === undefined || limitMs >= left) return runKind({ ...run, network });

  const stop = new AbortController();
  // A little before the bridge's own cut, so the kind cancels the query rather than losing the tunnel;
  // a run that fails after that point (a busy event loop let the bridge cut first) ended at it too.
  const endAtMs = limitMs - Math.min(250, Math.floor(limitMs / 10));
  const startedAt = Date.now();
  const timer = setTimeout(() => stop.abort('bridge_timeout'), endAtMs);
  const pastBridgeLimit = () => stop.signal.aborted || Date.now() - startedAt >= endAtMs;
  const ended = () =>
    new DoguError(
      'execution_timeout',
      `Bridge '${bridge.id}' ended the run at its time-out of ${limitMs} ms (before the action's own limit).`,
    );
  try {
    const results = await runKind({
      ...run,
      network,
      signal: AbortSignal.any([run.signal, stop.signal]),
      deadlineAt: Date.now() + limitMs,
    });
    if (!pastBridgeLimit()) return results;
    return results.map((result) =>
      result.status === 'failed'
        ? { ...result, error: { code: 'execution_timeout', message: ended().message } }
        : result,
    );
  } catch (error) {
    if (pastBridgeLimit()) throw ended();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A check through a bridge: the Dogu → bridge hop tried on its own first, then the kind's check
 * over the bridge's network. A failure carries `hop`: the tunnel's failure when one failed, else
 * the target's (the tunnel opened and the data source itself refused).
 */
export async function checkThroughBridge<T>(
  check: ConnectionCheck,
  key: string,
  runKind: (check: RuntimeCheck) => Promise<T>,
): Promise<T> {
  if (!check.bridge) return runKind(check);
  const contact = await probe(check.bridge, check.signal);
  check.bridge.contacted?.({
    ...(contact.version ? { version: contact.version } : {}),
    ...(contact.timeoutMs ? { timeoutMs: contact.timeoutMs } : {}),
  });
  let failedHop: BridgeHop | undefined;
  const network = bridgeNetwork(check.bridge, key, (error) => {
    failedHop ??= error.hop;
  });
  try {
    return await runKind({ ...check, network });
  } catch (error) {
    if (error instanceof DoguError && !(error instanceof BridgeError))
      throw Object.assign(error, { hop: failedHop ?? 'target' });
    throw error;
  }
}
