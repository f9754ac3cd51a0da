/** `dogu bridge --config FILE`: runs the bridge agent until SIGINT or SIGTERM (docs/bridge.md). */
import { runBridgeAgent } from '../bridge/main.ts';

export const runBridge = (configFile: string | undefined) => runBridgeAgent(configFile);
