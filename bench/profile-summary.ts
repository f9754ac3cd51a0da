/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [--from S] [--to S] [--top N]`
 *
 * Summarises a V8 CPU profile (from `node --cpu-prof`, e.g. the runtime's with
 * BENCH_CPU_PROF_DIR) as text: busy share per second of the profile (to find
 * the bench's throughput phase), then, within the window [--from, --to]
 * (seconds since the profile started; default: all of it), the top functions
 * by self time and by total (inclusive) time and the top modules (npm package
 * or source file) by self time, each as a share of the busy (non-idle) time.
 *
 * With `--auto`, the window is the last 5 s in which the process was more
 * than half busy: the bench's throughput phase, which runs last.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d/.test(a));
if (!file) {
  console.error(
    'usage: tsx bench/profile-summary.ts <file.cpuprofile> [--from S] [--to S] [--top N] [--auto]',
  );
  process.exit(2);
}
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};
const top = option('top') ?? 25;
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const idle = new Set<string>(['(idle)']);

// Sample times (µs since start) and their durations.
const times: number[] = [];
let t = 0;
for (const d of profile.timeDeltas) {
  t += d;
  times.push(t);
}
const duration = (i: number) => (i + 1 < times.length ? times[i + 1]! - times[i]! : 0);
const isIdle = (i: number) => idle.has(byId.get(profile.samples[i]!)!.callFrame.functionName);

// Busy share per second.
const seconds = Math.ceil(t / 1e6);
const busy = new Array<number>(seconds + 1).fill(0);
for (let i = 0; i < times.length; i++) if (!isIdle(i)) busy[Math.floor(times[i]! / 1e6)]! += duration(i);
console.log('busy per second:', busy.map((b) => `${Math.round(b / 1e4)}%`).join(' '));

let from = option('from') ?? 0;
let to = option('to') ?? seconds + 1;
if (args.includes('--auto')) {
  let last = busy.length - 1;
  while (last > 0 && busy[last]! < 5e5) last--;
  to = last + 1;
  from = Math.max(0, to - 5);
}
console.log(`window: ${from}s to ${to}s`);

const name = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const repo = url.indexOf('/perf-exec/');
  if (repo >= 0) return url.slice(repo + '/perf-exec/'.length);
  return url.replace(/^file:\/\//, '');
}
function moduleOf(f: CallFrame): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : '(native)';
  const nm = f.url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = f.url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (f.url.startsWith('node:')) return f.url;
  return shortUrl(f.url);
}

const self = new Map<string, number>();
const total = new Map<string, number>();
const modules = new Map<string, number>();
let busyTotal = 0;
let all = 0;
for (let i = 0; i < times.length; i++) {
  const at = times[i]! / 1e6;
  if (at < from || at >= to) continue;
  const d = duration(i);
  all += d;
  if (isIdle(i)) continue;
  busyTotal += d;
  const node = byId.get(profile.samples[i]!)!;
  self.set(name(node.callFrame), (self.get(name(node.callFrame)) ?? 0) + d);
  modules.set(moduleOf(node.callFrame), (modules.get(moduleOf(node.callFrame)) ?? 0) + d);
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    const key = name(byId.get(id)!.callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + d);
  }
}
console.log(`busy ${(busyTotal / 1e6).toFixed(2)} s of ${(all / 1e6).toFixed(2)} s in the window`);
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((v / busyTotal) * 100).toFixed(1).padStart(6)} %  ${k}`);
  }
};
print('self time by module (share of busy time)', modules);
print('self time by function', self);
print('total time by function', total);
