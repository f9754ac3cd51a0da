/**
 * The optional WAF in front of CloudFront (context `waf=true`): a CLOUDFRONT-scope web ACL, which AWS
 * only creates in us-east-1, so it is a small stack of its own there; the main stack takes its ARN
 * through a cross-region reference (infra/app.ts). Managed rule groups plus a rate-based rule per IP.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

export interface EdgeWafStackProps extends StackProps {
  stage: string;
  /** Requests per 5 minutes from one IP before it is blocked for a while (WAF's rate-based rule). */
  requestsPer5MinutesPerIp?: number;
}

export const defaultRequestsPer5MinutesPerIp = 3000;

/** AWS managed rule groups; SQL injection rules are left out: SQL is what actions are made of. */
export const managedRuleGroups = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesKnownBadInputsRuleSet',
  'AWSManagedRulesCommonRuleSet',
] as const;

/**
 * Rules of the common rule set that only count: action definitions and scripts are larger than 8 KB
 * and legitimately contain markup and script text.
 */
export const countedCommonRules = ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY', 'GenericLFI_BODY'];

export class EdgeWafStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeWafStackProps) {
    const { stage, requestsPer5MinutesPerIp = defaultRequestsPer5MinutesPerIp, ...stackProps } = props;
    super(scope, id, { description: `Dogu (${stage}) WAF for CloudFront`, ...stackProps });
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName,
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`dogu-${stage}`),
      rules: [
        {
          name: 'RatePerIp',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: requestsPer5MinutesPerIp, aggregateKeyType: 'IP' } },
          visibilityConfig: visibility('RatePerIp'),
        },
        ...managedRuleGroups.map((name, i) => ({
          name,
          priority: i + 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name,
              ...(name === 'AWSManagedRulesCommonRuleSet'
                ? {
                    ruleActionOverrides: countedCommonRules.map((rule) => ({
                      name: rule,
                      actionToUse: { count: {} },
                    })),
                  }
                : {}),
            },
          },
          visibilityConfig: visibility(name),
        })),
      ],
    });
    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn });
  }
}
