// `npm start` (after prestart, scripts/prestart.ts): runs the embedded runtime from its prebuilt
// bundle (scripts/build-runtime.ts: `.dogu/build/runtime/<current>/main.mjs`, where the file `current`
// names the finished build), with no TypeScript loader. Without a usable bundle (its build failed,
// or this ran without prestart) it runs the TypeScript sources through tsx instead, as before.
// Plain JavaScript, so choosing costs one small file read.
import { readFileSync } from 'node:fs';

const buildDir = new URL('../.dogu/build/runtime/', import.meta.url);

async function startFromBundle() {
  let current;
  try {
    current = readFileSync(new URL('current', buildDir), 'utf8').trim();
  } catch {
    return false;
  }
  try {
    await import(new URL(`${current}/main.mjs`, buildDir).href);
    return true;
  } catch (error) {
    // Only a bundle that cannot be loaded falls back; the runtime reports its own start-up errors.
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' && !(error instanceof SyntaxError)) throw error;
    console.error(
      `Dogu: the runtime bundle could not be loaded (${error.message}); starting with tsx instead.`,
    );
    return false;
  }
}

if (!(await startFromBundle())) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../local/main.ts');
}
