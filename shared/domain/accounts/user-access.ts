/**
 * Whether a user token is still good: its user's account is not disabled and the token's
 * generation (`ugen`, absent = 0) is the account's current one. Answers are remembered for
 * `ttlMs` (another container sees a change within it); changes made in this process forget
 * the answer at once, so on the embedded runtime a disabled user is refused on the next request.
 */
import { unauthorized } from '../errors.ts';
import type { Principal } from '../model.ts';
import type { AccountStore } from './model.ts';

export const generationClaim = 'ugen';
const maxRemembered = 10_000;

export class UserAccessChecker {
  private readonly states = new Map<string, { disabled: boolean; generation: number; at: number }>();

  constructor(
    private readonly accounts: Pick<AccountStore, 'getAccount'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 401 for a token of a disabled user or of an older generation. */
  async check(principal: Principal, claims: Record<string, unknown>): Promise<void> {
    if (principal.kind !== 'user') return;
    const state = await this.stateOf(principal.id);
    if (state.disabled) throw unauthorized('This account is disabled.');
    const generation = typeof claims[generationClaim] === 'number' ? claims[generationClaim] : 0;
    if (generation !== state.generation) throw unauthorized('The session has ended; sign in again.');
  }

  forget(userId: string): void {
    this.states.delete(userId);
  }

  private async stateOf(userId: string) {
    const now = this.now();
    const known = this.states.get(userId);
    if (known && now - known.at < this.ttlMs) return known;
    const account = await this.accounts.getAccount(userId);
    const state = {
      disabled: account?.disabled === true,
      generation: account?.tokenGeneration ?? 0,
      at: now,
    };
    this.states.delete(userId);
    if (this.states.size >= maxRemembered) this.states.delete(this.states.keys().next().value!);
    if (this.ttlMs > 0) this.states.set(userId, state);
    return state;
  }
}
