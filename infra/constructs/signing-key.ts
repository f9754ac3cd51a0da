/** The HS256 key that signs and verifies Dogu bearer tokens, kept in Secrets Manager. */
import { RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';

/** 64 alphanumeric characters carry about 380 bits, well above HS256's 256-bit minimum. */
export const signingKeyLength = 64;

export interface SigningKeyProps {
  /** Retained in production so a stack mistake cannot log every user out. */
  retain: boolean;
}

export class SigningKey extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string, props: SigningKeyProps) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Dogu token signing key (HS256). The SecretString is the raw key.',
      // No template: the SecretString is the key itself, as shared/runtime/aws-core.ts reads it.
      generateSecretString: { passwordLength: signingKeyLength, excludePunctuation: true },
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledge(
      this.secret,
      'SMG4',
      'Rotating the HS256 key ends every session at once; it is rotated by hand when needed (docs/deploy.md, "Rotate keys").',
    );
  }
}
