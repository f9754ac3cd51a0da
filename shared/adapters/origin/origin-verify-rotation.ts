/**
 * Rotation of the origin-verify secret (decision 0171), as Secrets Manager's four rotation steps:
 *
 * - createSecret: a new random value as the AWSPENDING version of the request's token;
 * - setSecret: the pending value handed to CloudFront (the `OriginHeaderPublisher`), which sends it
 *   from then on; the API already accepts AWSPENDING, so nothing is refused while edges switch;
 * - testSecret: CloudFront's copy read back and compared with the pending value;
 * - finishSecret: AWSCURRENT moved to the new version; Secrets Manager labels the old one AWSPREVIOUS,
 *   which the API keeps accepting until the next rotation (the overlap window).
 *
 * Each step may run again after a failure (Secrets Manager retries), so each is idempotent.
 */
import {
  DescribeSecretCommand,
  GetRandomPasswordCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';

/** Where CloudFront takes the header value from. */
export interface OriginHeaderPublisher {
  publish(value: string): Promise<void>;
  /** The value CloudFront sends now, or undefined when none was published. */
  current(): Promise<string | undefined>;
}

export interface RotationEvent {
  SecretId: string;
  ClientRequestToken: string;
  Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';
}

/** Same shape as the stack's first value (infra/dogu-stack.ts): letters and digits, 48 long. */
export const originVerifyLength = 48;

export async function rotateOriginVerify(
  event: RotationEvent,
  deps: { secrets: SecretsManagerClient; publisher: OriginHeaderPublisher },
): Promise<void> {
  const { SecretId, ClientRequestToken: token, Step } = event;
  const { secrets, publisher } = deps;
  const described = await secrets.send(new DescribeSecretCommand({ SecretId }));
  if (!described.RotationEnabled) throw new Error(`Rotation is not enabled for ${SecretId}.`);
  const stages = described.VersionIdsToStages?.[token];
  if (!stages) throw new Error(`Version ${token} is not a version of ${SecretId}.`);
  if (stages.includes('AWSCURRENT')) return;
  if (!stages.includes('AWSPENDING')) throw new Error(`Version ${token} is not pending for ${SecretId}.`);

  const pending = async () => {
    const answer = await secrets.send(
      new GetSecretValueCommand({ SecretId, VersionId: token, VersionStage: 'AWSPENDING' }),
    );
    if (!answer.SecretString) throw new Error(`The pending version of ${SecretId} has no value.`);
    return answer.SecretString;
  };

  switch (Step) {
    case 'createSecret': {
      // The current version must exist: it is what CloudFront sends until setSecret.
      await secrets.send(new GetSecretValueCommand({ SecretId, VersionStage: 'AWSCURRENT' }));
      try {
        await pending();
        return;
      } catch (error) {
        if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      }
      const random = await secrets.send(
        new GetRandomPasswordCommand({ PasswordLength: originVerifyLength, ExcludePunctuation: true }),
      );
      await secrets.send(
        new PutSecretValueCommand({
          SecretId,
          ClientRequestToken: token,
          SecretString: random.RandomPassword!,
          VersionStages: ['AWSPENDING'],
        }),
      );
      return;
    }
    case 'setSecret':
      await publisher.publish(await pending());
      return;
    case 'testSecret': {
      const published = await publisher.current();
      if (published !== (await pending())) {
        throw new Error(`CloudFront does not send the pending value of ${SecretId} yet.`);
      }
      return;
    }
    case 'finishSecret': {
      const current = Object.entries(described.VersionIdsToStages ?? {}).find(([, labels]) =>
        labels.includes('AWSCURRENT'),
      )?.[0];
      await secrets.send(
        new UpdateSecretVersionStageCommand({
          SecretId,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: token,
          ...(current ? { RemoveFromVersionId: current } : {}),
        }),
      );
      return;
    }
    default:
      throw new Error(`Unknown rotation step ${String(Step)}.`);
  }
}
