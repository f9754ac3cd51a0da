/** `dogu bridge --config FILE`: runs the bridge agent until SIGINT or SIGTERM (docs/bridge.md). */
import { startBridge } from '../bridge/agent.ts';
import { loadBridgeConfig } from '../bridge/config.ts';
import { jsonLog } from '../bridge/json-log.ts';

export async function runBridge(configFile: string | undefined): Promise<number> {
  const file = configFile ?? process.env.DOGU_BRIDGE_CONFIG;
  if (!file) {
    process.stderr.write('dogu bridge needs --config FILE (or DOGU_BRIDGE_CONFIG); see docs/bridge.md.\n');
    return 2;
  }
  const log = jsonLog();
  const bridge = await startBridge(await loadBridgeConfig(file), log);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await bridge.close();
  log('info', 'bridge_stopped');
  return 0;
}
