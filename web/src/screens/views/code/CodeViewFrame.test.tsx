// @vitest-environment jsdom
/**
 * The console's side of a code view's new messages (decisions 0225, 0226, 0228): what a frame posts
 * is checked before anything is shown — a well-formed toast appears in the console's toast area, a
 * malformed one or one from another window does not, the sixth toast within ten seconds is dropped —
 * and a frame that asks for the chart library gets Chart.js's code, built by the same plugin as the
 * console's build, while an unknown library name gets no answer.
 */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { ToFrame } from '../frame/protocol.ts';
import { CodeViewFrame } from './CodeViewFrame.tsx';

afterEach(cleanup);

function mount() {
  render(
    <InConsole>
      <CodeViewFrame
        viewId="v1"
        code="export default function View() { return null; }"
        actionIds={[]}
        args={{}}
        user={{ id: 'u1' }}
        projectId="demo"
        environmentId="development"
        href={demoWorkspace.href}
      />
    </InConsole>,
  );
  const frameWindow = document.querySelector('iframe')!.contentWindow!;
  const received: ToFrame[] = [];
  frameWindow.postMessage = ((message: ToFrame) => received.push(message)) as typeof frameWindow.postMessage;
  const post = async (data: unknown, source: Window = frameWindow) => {
    await act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data, source, origin: 'null' }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  };
  return { received, post };
}

async function started() {
  const frame = mount();
  await frame.post({ dogu: 1, type: 'ready' });
  const init = frame.received.find((m) => m.type === 'init');
  if (!init) throw new Error('no init');
  return { ...frame, channel: init.channel };
}

const toastText = () => document.querySelector('.toasts')?.textContent ?? '';

describe("a code view's toasts", () => {
  it('shows well-formed ones from its frame only, and drops the sixth within ten seconds', async () => {
    const { post, channel } = await started();
    await post({ dogu: 1, type: 'toast', channel, message: 'Saved order 7' });
    expect(toastText()).toContain('Saved order 7');

    await post({ dogu: 1, type: 'toast', channel, message: 'Bad kind', kind: 'html' });
    await post({ dogu: 1, type: 'toast', channel: 'another', message: 'Wrong channel' });
    await post({ dogu: 1, type: 'toast', channel, message: 'From the page itself' }, window);
    expect(toastText()).not.toMatch(/Bad kind|Wrong channel|From the page itself/);

    for (const n of [2, 3, 4, 5, 6]) await post({ dogu: 1, type: 'toast', channel, message: `Toast ${n}` });
    expect(toastText()).toContain('Toast 5');
    expect(toastText()).not.toContain('Toast 6');
  });
});

describe("a code view's chart library", () => {
  it('is sent when asked by name, and an unknown name gets no answer', async () => {
    const { post, channel, received } = await started();
    await post({ dogu: 1, type: 'library', channel, name: 'echarts' });
    await post({ dogu: 1, type: 'library', channel, name: 'chart' });
    await act(async () => {
      for (let i = 0; i < 200 && !received.some((m) => m.type === 'library'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    const answers = received.filter((m) => m.type === 'library');
    expect(answers.map((m) => m.type === 'library' && m.name)).toEqual(['chart']);
    const answer = answers[0] as Extract<ToFrame, { type: 'library' }>;
    expect(answer.channel).toBe(channel);
    expect(answer.error).toBeUndefined();
    expect(answer.source).toContain('Chart.js v4');
    expect(answer.source).toContain('__doguChartJs');
  }, 60_000);
});
