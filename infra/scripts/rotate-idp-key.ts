/**
 * Adds a new signing key to a deployed stage's own-IdP key secret and retires
 * the previous one (still published until the tokens it signed have expired).
 * Run once after the first deploy, then on your rotation schedule:
 *
 *   npx tsx infra/scripts/rotate-idp-key.ts <IdpSigningKeysSecretArn>
 *
 * Needs credentials allowed to GetSecretValue and PutSecretValue on that secret.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsManagerSigningKeyStore, SigningKeyRing } from '../../shared/adapters/idp/signing-keys.ts';
import { systemClock } from '../../shared/adapters/ids.ts';

const secretArn = process.argv[2];
if (!secretArn) {
  console.error('Usage: npx tsx infra/scripts/rotate-idp-key.ts <IdpSigningKeysSecretArn>');
  process.exit(2);
}
const ring = new SigningKeyRing(
  new SecretsManagerSigningKeyStore(new SecretsManagerClient({}), secretArn),
  systemClock,
);
const { kid } = await ring.rotate();
console.log(`New signing key ${kid} is active; the previous one stays published until its tokens expire.`);
