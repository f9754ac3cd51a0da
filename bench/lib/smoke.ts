/**
 * `npm run bench -- --smoke` (or BENCH_SMOKE=1): every phase shortened to a
 * few requests or a fraction of a second. It proves the benches still run
 * (test/bench/smoke.test.ts runs them in `npm test`); its numbers mean nothing
 * and its targets are not checked. The n8n peer is left out of a smoke by
 * design: it is a 1 GB install and takes ~15 s to start.
 */
export const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

/** `full` normally, `small` in a smoke. */
export const sized = <T>(full: T, small: T): T => (smoke ? small : full);
