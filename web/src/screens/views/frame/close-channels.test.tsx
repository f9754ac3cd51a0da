/**
 * removeWebRtc on a stand-in global: every WebRTC name goes, others stay, and what cannot be
 * removed is reported so the frame refuses to start the view (the Chromium side is
 * test/e2e/code-view-channels.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { removeWebRtc } from './close-channels.ts';

describe('removeWebRtc', () => {
  it('removes RTC, webkitRTC and mozRTC globals and keeps the rest', () => {
    const global: Record<string, unknown> = {
      RTCPeerConnection: class {},
      webkitRTCPeerConnection: class {},
      mozRTCPeerConnection: class {},
      RTCDataChannel: class {},
      RTCIceCandidate: class {},
      fetch: () => {},
      WebSocket: class {},
      PRTC: 1,
    };
    expect(removeWebRtc(global)).toEqual([]);
    expect(Object.keys(global).sort()).toEqual(['PRTC', 'WebSocket', 'fetch']);
  });

  it('reports a WebRTC global that cannot be removed', () => {
    const global = {};
    Object.defineProperty(global, 'RTCPeerConnection', { value: class {}, configurable: false });
    expect(removeWebRtc(global)).toEqual(['RTCPeerConnection']);
  });
});
