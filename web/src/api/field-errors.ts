/**
 * Problem Details field errors by the body member they point at: `#/name` → `name`,
 * `#/environments/development/host` → `environments/development/host`. Screens read the key
 * of the input they show; anything no input claims goes above the form.
 */
import { ApiError } from './client.ts';

/** The members a JSON Pointer names, unescaped (`#/arguments/a~1b` → `['arguments', 'a/b']`). */
export function pointerSegments(pointer: string): string[] {
  return pointer
    .replace(/^#?\/?/, '')
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * `moved`: the request's body sat elsewhere in the form (a connection test's `connection/port` is
 * the form's `environments/development/port`).
 */
export function pointerErrors(error: unknown, moved?: { from: string; to: string }): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const { pointer, detail } of error.errors) {
    let key = pointerSegments(pointer).join('/');
    if (moved && (key === moved.from || key.startsWith(`${moved.from}/`)))
      key = moved.to + key.slice(moved.from.length);
    out[key] = out[key] ? `${out[key]} ${detail}` : detail;
  }
  return out;
}

/** The message for an input: its own pointer, or any pointer below it (`schedule/times` for `schedule/times/times/1`). */
export function errorAt(errors: Record<string, string>, key: string): string | undefined {
  const own = errors[key];
  const below = Object.entries(errors)
    .filter(([path]) => path.startsWith(`${key}/`))
    .map(([, detail]) => detail);
  const all = [own, ...below].filter(Boolean);
  return all.length ? all.join(' ') : undefined;
}

/** Errors no input on the screen shows (so they are not lost). */
export function unclaimedErrors(errors: Record<string, string>, claimed: string[]): string[] {
  return Object.entries(errors)
    .filter(([path]) => !claimed.some((key) => path === key || path.startsWith(`${key}/`)))
    .map(([path, detail]) => (path ? `${path}: ${detail}` : detail));
}
