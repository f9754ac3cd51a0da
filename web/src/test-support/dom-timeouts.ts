/**
 * Console component tests wait for screens that load through mocked fetches. RTL's default of 1 s
 * for `findBy…`/`waitFor` is too short when `npm test` shares 2 cores with Chromium and servers;
 * 5 s is still far below the test timeout, so a real failure stays a failure.
 */
export {};

if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5_000 });
}
