/**
 * Stands in for `bowser` in the Lambda bundles (infra/constructs/handler-bundle.ts). The AWS SDK's
 * shared client code re-exports its browser user-agent provider, which imports bowser (34 KB) to
 * parse `window.navigator.userAgent`; on Lambda there is no window, so the SDK never parses one and
 * the provider falls back to "other"/"unknown" with or without it. Every function carried it.
 */
export function parse(): Record<string, never> {
  return {};
}

export default { parse };
