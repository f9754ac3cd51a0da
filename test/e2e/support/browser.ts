/**
 * End-to-end harness for the console: builds web/ once (skipped when web/dist is newer than every
 * source file), starts a real embedded runtime in a temp directory (it serves web/dist at `/`),
 * and drives Debian's Chromium through playwright-core. Login goes through the runtime's built-in
 * development IdP, exactly as a person would click it.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { LocalRuntime } from '../../../local/runtime.ts';
import { startTestRuntime, tempDir } from '../../support/runtime.ts';

const execFileAsync = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const webDir = join(repoRoot, 'web');
const distIndex = join(webDir, 'dist', 'index.html');
export const screenshotDir = join(repoRoot, 'docs', 'screenshots');

export const chromiumPath = process.env.DOGU_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestSource(path));
    else if (!entry.name.endsWith('.test.tsx') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, (await stat(path)).mtimeMs);
    }
  }
  return newest;
}

async function builtAt(): Promise<number> {
  try {
    return (await stat(distIndex)).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Builds the console unless web/dist is already newer than its sources. Test files run in
 * parallel processes: a lock directory makes the others wait for the one that builds.
 */
export async function buildConsoleOnce(): Promise<void> {
  if ((await builtAt()) > (await newestSource(webDir))) return;
  const lock = join(repoRoot, 'web', '.build-lock');
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (attempt > 600) throw new Error(`web build lock ${lock} held for 60 s; remove it if no build runs.`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      if ((await builtAt()) > (await newestSource(webDir))) return;
    }
  }
  try {
    if ((await builtAt()) > (await newestSource(webDir))) return;
    // A child process with NODE_ENV=production: inside vitest NODE_ENV is 'test', which would make
    // Vite and the React plugin build React's development runtime (several times slower).
    await execFileAsync(
      process.execPath,
      [
        join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        join(webDir, 'vite.config.ts'),
        '--logLevel',
        'warn',
      ],
      { cwd: repoRoot, env: { ...process.env, NODE_ENV: 'production' }, timeout: 120_000 },
    );
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export interface ConsoleUnderTest {
  runtime: LocalRuntime;
  url: string;
  browser: Browser;
  /** A fresh browser context (own cookies and storage) with a page on it. */
  newPage(options?: {
    locale?: string;
    viewport?: { width: number; height: number };
    /** The browser's own zone (IANA name); default: the machine's. */
    timezoneId?: string;
  }): Promise<Page>;
  close(): Promise<void>;
}

/** One runtime and one browser per test file. `demoDatabaseUrl`: a real PostgreSQL instead of PGlite. */
export async function startConsole(options: { demoDatabaseUrl?: string } = {}): Promise<ConsoleUnderTest> {
  await buildConsoleOnce();
  const dataDir = await tempDir('e2e');
  const runtime = await startTestRuntime(dataDir.path, options);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const contexts: BrowserContext[] = [];
  return {
    runtime,
    url: runtime.url,
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: runtime.url,
        locale: options.locale ?? 'en-US',
        viewport: options.viewport ?? { width: 1360, height: 860 },
        acceptDownloads: true,
        ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      });
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await runtime.close();
      await dataDir.remove();
    },
  };
}

/**
 * Signs in through the console's single sign-on button and the development IdP's login form
 * (oidc-provider devInteractions: any password, only seeded accounts), then waits for the app.
 */
export async function login(page: Page, user = 'admin@dogu.local', path = '/'): Promise<void> {
  await page.goto(path);
  await page
    .getByRole('button', { name: /^(Sign in with single sign-on|シングルサインオンでログイン)$/ })
    .click();
  await page.locator('input[name="login"]').fill(user);
  await page.locator('input[name="password"]').fill('dev');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname !== '/' && !url.pathname.startsWith('/auth/'), {
    timeout: 15_000,
  });
  await page.locator('.app-header').waitFor();
}

/** Saves `docs/screenshots/<name>.png` (the documentation shows these). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false, animations: 'disabled' });
  return path;
}

/** Signs in with e-mail and password on the console's own form, then waits for the app. */
export async function passwordSignIn(page: Page, email: string, password: string, path = '/'): Promise<void> {
  await page.goto(path);
  await page.getByLabel(/^(E-mail address|メールアドレス)/).fill(email);
  await page.getByLabel(/^(Password|パスワード)/).fill(password);
  await page.getByRole('button', { name: /^(Sign in|ログイン)$/ }).click();
  await page.locator('.app-header').waitFor();
}
