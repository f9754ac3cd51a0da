import { describe, expect, it } from 'vitest';
import { minimumNodeMajor, unsupportedNodeMessage } from '../../local/node-version.ts';

describe('supported Node.js', () => {
  it('refuses Node 20 with a message naming the version and what to do', () => {
    const message = unsupportedNodeMessage('20.19.1');
    expect(message).toContain('Node.js 22 or newer');
    expect(message).toContain('this is 20.19.1');
    expect(message).toContain('npm ci');
  });

  it('accepts 22 LTS and 24', () => {
    expect(unsupportedNodeMessage('22.23.3')).toBeUndefined();
    expect(unsupportedNodeMessage('24.11.0')).toBeUndefined();
  });

  it('runs the tests themselves on a supported Node (npm scripts use node_modules/.bin/node)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(minimumNodeMajor);
  });
});
