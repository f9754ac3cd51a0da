import { describe, expect, it } from 'vitest';
import { parseFromFrame } from './protocol.ts';

describe('parseFromFrame', () => {
  it('accepts the frame messages in their shapes only', () => {
    expect(parseFromFrame({ dogu: 1, type: 'ready' })).toEqual({ dogu: 1, type: 'ready' });
    expect(
      parseFromFrame({
        dogu: 1,
        type: 'runAction',
        channel: 'c',
        callId: 3,
        actionId: 'a',
        arguments: { x: 1 },
      }),
    ).toEqual({ dogu: 1, type: 'runAction', channel: 'c', callId: 3, actionId: 'a', arguments: { x: 1 } });
    expect(
      parseFromFrame({ dogu: 1, type: 'navigate', channel: 'c', to: { url: 'https://x', view: 7 } }),
    ).toEqual({
      dogu: 1,
      type: 'navigate',
      channel: 'c',
      to: { url: 'https://x' },
      arguments: {},
    });
    expect(parseFromFrame({ dogu: 1, type: 'error', channel: 'c', message: 'x'.repeat(5000) })).toMatchObject(
      {
        message: 'x'.repeat(2000),
      },
    );
  });

  it('ignores anything else', () => {
    for (const data of [
      null,
      'ready',
      { type: 'ready' },
      { dogu: 2, type: 'ready' },
      { dogu: 1, type: 'heartbeat' },
      { dogu: 1, type: 'runAction', channel: 'c', callId: '1', actionId: 'a' },
      { dogu: 1, type: 'runAction', channel: 'c', callId: 1, actionId: 'a', arguments: [1] },
      { dogu: 1, type: 'navigate', channel: 'c', to: { somewhere: 'x' } },
      { dogu: 1, type: 'resize', channel: 'c', height: Number.POSITIVE_INFINITY },
      { dogu: 1, type: 'eval', channel: 'c' },
    ]) {
      expect(parseFromFrame(data), JSON.stringify(data)).toBeUndefined();
    }
  });
});
