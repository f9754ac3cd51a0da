import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.ts';
import { frameLibrariesPlugin } from './web/view-frame.ts';

export default defineConfig({
  // Console code that imports the code-view frame's chart library resolves here as in the build.
  plugins: [frameLibrariesPlugin()],
  test: {
    // Console component tests run in jsdom (per-file `// @vitest-environment jsdom`).
    include: ['test/**/*.test.ts', 'web/src/**/*.test.tsx'],
    // Integration tests start real servers; give them room on a 2-core machine.
    testTimeout: 30_000,
    // A beforeAll that starts a runtime (dynalite, PGlite, servers) took over 60 s when other test runs
    // shared the 2 cores; a hook that truly hangs still fails.
    hookTimeout: 120_000,
    // expect.poll's default of 1 s failed a Chromium view load under a loaded full run; 10 s is still
    // far below the test timeout, so what never happens still fails.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on 2 cores, while the slowest
    // files wait a lot: the cron fault test sleeps across minute boundaries for ~3 minutes, others
    // wait on child processes, timers and Chromium. A third worker runs files meanwhile (0135).
    maxWorkers: 3,
    // Known-slow files first (CI has no results cache to order by): see the sequencer.
    sequence: { sequencer: SlowFirstSequencer },
    setupFiles: ['web/src/test-support/dom-timeouts.ts'],
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
  },
});
