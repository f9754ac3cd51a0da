/**
 * Closes the ways out of a code view's frame that its CSP cannot close (decision 0150).
 *
 * WebRTC: no CSP directive governs it in Chromium (a `webrtc 'block'` directive is drafted in CSP3,
 * but Chromium 156 answers "Unrecognized Content-Security-Policy directive 'webrtc'"), and an
 * `RTCPeerConnection` sends STUN/TURN packets to any host and port whatever `connect-src` says. So the
 * frame's realm loses every WebRTC interface before the view's code runs, and no other realm the
 * code could reach keeps them:
 * - nested frames: the frame is sandboxed without `allow-same-origin`, so every document in a nested
 *   frame gets a new opaque origin and the view cannot reach into it; `frame-src 'none'` refuses
 *   URLs (blob:, data:, http:), which leaves `srcdoc` frames and `javascript:` URLs, whose scripts
 *   would run in a fresh realm with WebRTC. `lockScripts` forbids them: after the frame's own inline
 *   scripts have run, it adds the policy `script-src 'strict-dynamic'`, which nested documents
 *   inherit and which refuses their inline scripts, event-handler attributes, `javascript:` URLs
 *   and parser-inserted scripts, while scripts that running code creates (the view's module) load;
 * - workers: `worker-src 'none'`, and no worker has WebRTC in Chromium;
 * - pop-ups: the sandbox has no `allow-popups`.
 * Both steps check that they took effect; if not, the frame refuses to run the view (fail closed).
 */

/** Globals that open WebRTC connections or belong to them (and their prefixed aliases). */
const webRtcName = /^(webkit|moz)?RTC/;

/** Removes every WebRTC interface from `global`; returns the names that could not be removed. */
export function removeWebRtc(global: object): string[] {
  const left: string[] = [];
  for (const name of Object.getOwnPropertyNames(global)) {
    if (!webRtcName.test(name)) continue;
    try {
      delete (global as Record<string, unknown>)[name];
    } catch {
      // a non-configurable property throws in strict mode: reported below
    }
    if (Object.hasOwn(global, name)) left.push(name);
  }
  return left;
}

/** The policy that forbids scripts the running code did not create itself. */
export const scriptLock = "script-src 'strict-dynamic'";

/**
 * Adds `scriptLock` to the document's policies (a CSP meta element holds once inserted: removing
 * it does not lift it) and proves it holds: an event-handler attribute must no longer run. (Chromium
 * still runs inline scripts that running code inserts under 'strict-dynamic', in this realm only;
 * what nested documents would need, their parser's inline scripts and handlers, it refuses.)
 */
export function lockScripts(document: Document): boolean {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = scriptLock;
  document.head.append(meta);
  const probe = '__doguHandlerRan';
  const element = document.createElement('div');
  element.setAttribute('onclick', `globalThis.${probe} = true`);
  element.click();
  const global = globalThis as unknown as Record<string, unknown>;
  const ran = global[probe] === true;
  delete global[probe];
  return !ran;
}
