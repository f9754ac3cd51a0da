/**
 * The tool-list watch of `dogu mcp` (decision 0235) on its own: what it keeps from the assistant, when
 * it notifies, and what it says when polling fails. The whole relay against a runtime is in
 * test/local/mcp-list-changes-and-limits.test.ts.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, pollSecondsOf, ToolListWatch } from '../../cli/commands/mcp-tool-watch.ts';

function watched(upstreamFails?: Error) {
  const sentUp: JSONRPCMessage[] = [];
  const toAssistant: JSONRPCMessage[] = [];
  const warnings: string[] = [];
  const watch = new ToolListWatch(
    {
      upstream: async (message) => {
        if (upstreamFails) throw upstreamFails;
        sentUp.push(message);
      },
      local: async (message) => {
        toAssistant.push(message);
      },
      warn: (text) => warnings.push(text),
    },
    30,
  );
  /** The endpoint's answer to the watch's last own poll. */
  const answerPoll = (tools: unknown[]) => {
    const poll = sentUp.at(-1) as { id: string };
    return watch.fromEndpoint({ jsonrpc: '2.0', id: poll.id, result: { tools } });
  };
  return { watch, sentUp, toAssistant, warnings, answerPoll };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ToolListWatch', () => {
  it('adds tools.listChanged to the initialize answer it relays', () => {
    const { watch } = watched();
    watch.fromAssistant({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } as JSONRPCMessage);
    const answer = watch.fromEndpoint({
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {}, resources: {} } },
    });
    expect(answer).toMatchObject({
      result: { capabilities: { tools: { listChanged: true }, resources: {} } },
    });
  });

  it('keeps its own polls from the assistant and notifies only when the list differs from the one it received', async () => {
    const { watch, toAssistant, answerPoll } = watched();
    const listA = [{ name: 'a' }];
    const listAB = [{ name: 'a' }, { name: 'b' }];
    // Before the assistant has listed anything there is nothing to tell it.
    await watch.poll();
    expect(answerPoll(listAB)).toBeUndefined();
    await settle();
    expect(toAssistant).toEqual([]);

    watch.fromAssistant({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    const relayed = watch.fromEndpoint({ jsonrpc: '2.0', id: 7, result: { tools: listA } });
    expect(relayed).toMatchObject({ id: 7 });
    await watch.poll();
    answerPoll(listA);
    await settle();
    expect(toAssistant).toEqual([]);
    await watch.poll();
    answerPoll(listAB);
    await settle();
    expect(toAssistant).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    // Told once per change, not on every poll after it.
    await watch.poll();
    answerPoll(listAB);
    await settle();
    expect(toAssistant).toHaveLength(1);
  });

  it('says a failing poll once, not on every poll', async () => {
    const { watch, warnings } = watched(
      new Error('Streamable HTTP error: 401 The access token has been revoked.'),
    );
    await watch.poll();
    await watch.poll();
    expect(warnings).toEqual([
      'dogu mcp: checking the tool list failed: Streamable HTTP error: 401 The access token has been revoked.\n',
    ]);
  });
});

describe('pollSecondsOf and fingerprintOf', () => {
  it('defaults to 30 s, 0 is off, anything else is refused', () => {
    expect(pollSecondsOf(undefined)).toBe(30);
    expect(pollSecondsOf('5')).toBe(5);
    expect(pollSecondsOf('0')).toBe(0);
    expect(() => pollSecondsOf('soon')).toThrow(/number of seconds/);
  });

  it('same list, same fingerprint; any difference, another', () => {
    expect(fingerprintOf([{ name: 'a' }])).toBe(fingerprintOf([{ name: 'a' }]));
    expect(fingerprintOf([{ name: 'a' }])).not.toBe(fingerprintOf([{ name: 'a', title: 'A' }]));
  });
});
