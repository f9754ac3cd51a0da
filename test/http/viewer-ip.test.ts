/**
 * The audit's source address (decision 0053): the viewer's address CloudFront adds is used only when
 * the request carries CloudFront's proof; otherwise API Gateway's own sourceIp.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { originOf } from '../../shared/http/audit-recording.ts';
import { originVerifyHeader, viewerIpHeader, viewerIpOf } from '../../shared/http/viewer-ip.ts';

const proof = 'b7Qz1cW9proofValueFromSecretsManager000000000000';
const event = (headers: Record<string, string>) =>
  ({
    headers: { 'user-agent': 'curl/8', ...headers },
    requestContext: { http: { sourceIp: '130.176.1.1' } },
  }) as unknown as APIGatewayProxyEventV2;

describe('viewerIpOf', () => {
  it("takes CloudFront's viewer address when the proof matches", () => {
    const through = event({ [viewerIpHeader]: '203.0.113.7', [originVerifyHeader]: proof });
    expect(viewerIpOf(through, proof)).toBe('203.0.113.7');
    const ipv6 = event({ [viewerIpHeader]: '2001:db8::7', [originVerifyHeader]: proof });
    expect(viewerIpOf(ipv6, proof)).toBe('2001:db8::7');
  });

  it('keeps API Gateway’s sourceIp without the proof, with a wrong one, or when none is configured', () => {
    const spoofed = { [viewerIpHeader]: '198.51.100.9' };
    expect(viewerIpOf(event(spoofed), proof)).toBe('130.176.1.1');
    expect(viewerIpOf(event({ ...spoofed, [originVerifyHeader]: 'guess' }), proof)).toBe('130.176.1.1');
    expect(viewerIpOf(event({ ...spoofed, [originVerifyHeader]: proof }), undefined)).toBe('130.176.1.1');
    // Not an address: never recorded, even with the proof.
    expect(viewerIpOf(event({ [viewerIpHeader]: '<script>', [originVerifyHeader]: proof }), proof)).toBe(
      '130.176.1.1',
    );
  });

  it('is what the audit records as the origin', () => {
    const previous = process.env.DOGU_ORIGIN_VERIFY;
    process.env.DOGU_ORIGIN_VERIFY = proof;
    try {
      expect(originOf(event({ [viewerIpHeader]: '203.0.113.7', [originVerifyHeader]: proof }))).toEqual({
        sourceIp: '203.0.113.7',
        userAgent: 'curl/8',
      });
    } finally {
      if (previous === undefined) delete process.env.DOGU_ORIGIN_VERIFY;
      else process.env.DOGU_ORIGIN_VERIFY = previous;
    }
  });
});
