/**
 * The bridge agent on its own (the container image runs the bundle of this file; `dogu bridge`
 * runs the same code through the CLI). Configuration: --config FILE or DOGU_BRIDGE_CONFIG; in a
 * container DOGU_BRIDGE_CONFIG_JSON with the certificate and key in DOGU_BRIDGE_TLS_CERT and
 * DOGU_BRIDGE_TLS_KEY (from a secret store), so no file needs to be baked into the image.
 */
import { startBridge } from './agent.ts';
import { bridgeConfigFrom, loadBridgeConfig } from './config.ts';
import { jsonLog } from './json-log.ts';

export async function runBridgeAgent(configFile: string | undefined, env = process.env): Promise<number> {
  const log = jsonLog();
  const file = configFile ?? env.DOGU_BRIDGE_CONFIG;
  let config: Awaited<ReturnType<typeof loadBridgeConfig>>;
  try {
    if (file) config = await loadBridgeConfig(file, env);
    else if (env.DOGU_BRIDGE_CONFIG_JSON)
      config = await bridgeConfigFrom(JSON.parse(env.DOGU_BRIDGE_CONFIG_JSON), process.cwd(), env);
    else {
      process.stderr.write(
        'The bridge needs --config FILE, DOGU_BRIDGE_CONFIG or DOGU_BRIDGE_CONFIG_JSON; see docs/bridge.md.\n',
      );
      return 2;
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const bridge = await startBridge(config, log);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await bridge.close();
  log('info', 'bridge_stopped', { bridge: config.id });
  return 0;
}

// Run directly (the container's bundle): node bridge.mjs [--config FILE]
if (process.argv[1] && /bridge(\.m?js|[/\\]main\.ts)$/.test(process.argv[1])) {
  const at = process.argv.indexOf('--config');
  process.exitCode = await runBridgeAgent(at > 0 ? process.argv[at + 1] : undefined);
}
