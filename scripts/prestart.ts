/**
 * `npm start`'s prestart: builds the console (scripts/build-console.ts) and the embedded runtime's
 * bundle (scripts/build-runtime.ts), each only when its sources changed. A console that fails to
 * build fails the start (there would be nothing to serve); a runtime bundle that fails to build does
 * not: scripts/start.mjs then runs the TypeScript sources with tsx, as before the bundle, and this
 * says so in one line.
 */
import { buildConsoleIfChanged } from './build-console.ts';
import { buildRuntimeIfChanged } from './build-runtime.ts';

const root = new URL('..', import.meta.url).pathname;
const runtimeFailure = buildRuntimeIfChanged(root).then(
  () => undefined,
  (error: unknown) => error,
);
await buildConsoleIfChanged(root);
const failure = await runtimeFailure;
if (failure !== undefined) {
  const reason = failure instanceof Error ? failure.message : String(failure);
  console.error(
    `Dogu: the runtime bundle could not be built (${reason.split('\n')[0]}); starting from the TypeScript sources with tsx instead.`,
  );
}
