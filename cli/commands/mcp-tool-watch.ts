/**
 * List-changed notifications for `dogu mcp` (decision 0235). The HTTP endpoint is stateless and holds
 * no stream to push on, but the relay is a long-lived process beside the assistant: it asks the
 * endpoint for the tool list now and then, compares a fingerprint of it with the list the assistant
 * last received, and tells the assistant `notifications/tools/list_changed` when they differ — after a
 * publication, an unpublication, a permission or an agent setting changed.
 */
import { createHash } from 'node:crypto';
import {
  isInitializedNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export const defaultPollSeconds = 30;

/** Reads --poll-seconds or DOGU_MCP_POLL_SECONDS: unset is the default, 0 turns polling off. */
export function pollSecondsOf(text: string | undefined): number {
  if (text === undefined || text === '') return defaultPollSeconds;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`The poll interval must be a number of seconds (0 = off), not '${text}'.`);
  }
  return value;
}

/** Same tools, same fingerprint: the server answers them in a fixed order. */
export function fingerprintOf(tools: unknown): string {
  return createHash('sha256').update(JSON.stringify(tools)).digest('base64url');
}

export interface ToolWatchPorts {
  /** Sends a message of the watch's own to the endpoint. */
  upstream: (message: JSONRPCMessage) => Promise<void>;
  /** Sends a message to the assistant. */
  local: (message: JSONRPCMessage) => Promise<void>;
  warn: (text: string) => void;
}

export class ToolListWatch {
  /** Fingerprint of the last list the assistant received (undefined: it has not listed yet). */
  #seen: string | undefined;
  readonly #assistantLists = new Set<RequestId>();
  readonly #ownPolls = new Set<RequestId>();
  #initializeId: RequestId | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #polls = 0;
  #lastWarning = '';

  constructor(
    private readonly ports: ToolWatchPorts,
    private readonly pollSeconds: number,
  ) {}

  /** Looks at a message from the assistant on its way to the endpoint. */
  fromAssistant(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      if (message.method === 'initialize') this.#initializeId = message.id;
      else if (message.method === 'tools/list') this.#assistantLists.add(message.id);
    } else if (isInitializedNotification(message)) this.#start();
  }

  /**
   * Looks at a message from the endpoint: the answer to one of the watch's own polls is kept from the
   * assistant (undefined); an `initialize` answer gains `tools.listChanged`, which this relay provides.
   */
  fromEndpoint(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!('id' in message) || message.id === undefined) return message;
    const id = message.id;
    if (this.#ownPolls.delete(id)) {
      if (isJSONRPCResultResponse(message)) void this.#compare(fingerprintOf(message.result.tools));
      return undefined;
    }
    if (!isJSONRPCResultResponse(message)) return message;
    if (this.#assistantLists.delete(id)) {
      this.#seen = fingerprintOf(message.result.tools);
    } else if (id === this.#initializeId) {
      this.#initializeId = undefined;
      const result = message.result as { capabilities?: { tools?: Record<string, unknown> } };
      if (result.capabilities?.tools && this.pollSeconds > 0) {
        return {
          ...message,
          result: {
            ...result,
            capabilities: {
              ...result.capabilities,
              tools: { ...result.capabilities.tools, listChanged: true },
            },
          },
        };
      }
    }
    return message;
  }

  /** Asks the endpoint for the tool list once (the timer calls this). */
  async poll(): Promise<void> {
    const id = `dogu-tool-watch-${++this.#polls}`;
    this.#ownPolls.add(id);
    try {
      await this.ports.upstream({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
    } catch (error) {
      this.#ownPolls.delete(id);
      // Said once per kind of failure (a revoked token fails every poll alike).
      const text = `dogu mcp: checking the tool list failed: ${(error as Error).message}\n`;
      if (text !== this.#lastWarning) this.ports.warn(text);
      this.#lastWarning = text;
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #start(): void {
    if (this.pollSeconds <= 0 || this.#timer) return;
    this.#timer = setInterval(() => void this.poll(), this.pollSeconds * 1000);
    // Polling alone never keeps `dogu mcp` running.
    this.#timer.unref();
  }

  async #compare(fingerprint: string): Promise<void> {
    this.#lastWarning = '';
    // Nothing to tell an assistant that has not listed the tools: it gets the new list when it does.
    if (this.#seen === undefined || this.#seen === fingerprint) return;
    this.#seen = fingerprint;
    await this.ports.local({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  }
}
