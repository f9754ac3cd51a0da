/**
 * Content Security Policies of the console's documents, one source for both runtimes (the local
 * static server and CloudFront's response headers; docs/decisions/0048-code-view-frame.md).
 */

/**
 * The console's pages: scripts only from its own files (no inline script and no eval: view
 * expressions are interpreted, never eval'd), frames only from its own origin (so a code view's
 * frame cannot navigate itself to another site), never framed itself.
 */
export const consoleCsp =
  "script-src 'self'; frame-src 'self'; object-src 'self' https: data: blob:; base-uri 'self'; frame-ancestors 'none'";

/** Where the code-view frame document is served (web/view-frame.ts builds it). */
export const viewFramePath = '/view-frame.html';

/**
 * The code-view frame: no network at all (connect, images, media, fonts only from data:/blob:),
 * no forms, no nested frames. Scripts: the inline SDK runtime and the view's module from a blob:
 * URL through an inline import map ('unsafe-inline' is harmless here: the frame runs the view
 * author's code by design and holds nothing of the console's; the boundary is the opaque origin).
 * Before the view's code runs, the frame adds `script-src 'strict-dynamic'` and removes WebRTC,
 * which no directive here governs (decision 0150, web/src/screens/views/frame/close-channels.ts).
 */
export const viewFrameCsp = [
  "default-src 'none'",
  "script-src 'unsafe-inline' blob:",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'media-src data: blob:',
  'font-src data:',
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
].join('; ');
