/**
 * The value CloudFront sends as `x-dogu-origin-verify`, read from Secrets Manager at run time instead
 * of a function's environment (decision 0170): nothing in a function's configuration holds it, and a
 * new value (a rotation, decision 0171) is picked up without a deploy.
 *
 * Every version a CloudFront edge may still send is accepted: AWSCURRENT, AWSPENDING (the rotation
 * publishes the new value to CloudFront before it becomes current) and AWSPREVIOUS (edges that have
 * not seen the new value yet). Values are cached for `ttlMs`; a value that matches none of them is
 * checked once more against a fresh read, at most every `recheckMs`, so a rotation is accepted within
 * seconds while a caller guessing values cannot make each request cost a Secrets Manager call.
 */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { sameSecret } from '../../http/viewer-ip.ts';

/** The staging labels whose values are accepted, in the order they are read. */
export const acceptedStages = ['AWSCURRENT', 'AWSPENDING', 'AWSPREVIOUS'] as const;

export interface OriginVerifySecretOptions {
  secretId: string;
  /** How long read values are used before they are read again. */
  ttlMs?: number;
  /** The shortest time between two reads caused by a value that matched nothing. */
  recheckMs?: number;
  now?: () => number;
}

export class OriginVerifySecret {
  readonly #client: SecretsManagerClient;
  readonly #secretId: string;
  readonly #ttlMs: number;
  readonly #recheckMs: number;
  readonly #now: () => number;
  #values: string[] | undefined;
  #reading: Promise<string[]> | undefined;
  #readAt = Number.NEGATIVE_INFINITY;

  constructor(client: SecretsManagerClient, options: OriginVerifySecretOptions) {
    this.#client = client;
    this.#secretId = options.secretId;
    this.#ttlMs = options.ttlMs ?? 300_000;
    this.#recheckMs = options.recheckMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  /** Whether `presented` is one of the values CloudFront may send now. */
  async accepts(presented: string | undefined): Promise<boolean> {
    if (!presented) return false;
    const now = this.#now();
    if (now - this.#readAt >= this.#ttlMs) await this.#refresh(now);
    if (matches(this.#values!, presented)) return true;
    if (now - this.#readAt < this.#recheckMs) return false;
    await this.#refresh(now);
    return matches(this.#values!, presented);
  }

  /**
   * Reads every accepted stage (one read at a time per container). When a read fails, values read
   * before stay in use and the read is tried again after `recheckMs`: a passing Secrets Manager
   * error does not refuse CloudFront's requests. With nothing read yet the error is the caller's.
   */
  async #refresh(now: number) {
    this.#readAt = now;
    this.#reading ??= Promise.all(acceptedStages.map((stage) => this.#valueAt(stage)))
      .then((values) => values.filter((value): value is string => Boolean(value)))
      .finally(() => {
        this.#reading = undefined;
      });
    try {
      this.#values = await this.#reading;
    } catch (error) {
      if (!this.#values) {
        this.#readAt = Number.NEGATIVE_INFINITY;
        throw error;
      }
      this.#readAt = now - this.#ttlMs + this.#recheckMs;
    }
  }

  async #valueAt(stage: string): Promise<string | undefined> {
    try {
      const answer = await this.#client.send(
        new GetSecretValueCommand({ SecretId: this.#secretId, VersionStage: stage }),
      );
      return answer.SecretString;
    } catch (error) {
      // Before the first rotation there is no AWSPENDING or AWSPREVIOUS version.
      if ((error as Error).name === 'ResourceNotFoundException' && stage !== 'AWSCURRENT') return undefined;
      throw error;
    }
  }
}

const matches = (values: string[], presented: string) => values.some((value) => sameSecret(presented, value));
