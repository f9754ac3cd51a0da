/**
 * An IdentityStore in memory: the tests' store, and the runtimes' placeholder
 * until the persistent IdentityStore is wired (nothing in it survives a
 * restart, and it starts empty, so no token can be exchanged by accident).
 */

import type { IdentityStore, ServiceAccount, TrustPolicy } from '../../shared/domain/identity/model.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';

export class MemoryIdentityStore implements IdentityStore {
  private readonly accounts = new Map<string, ServiceAccount>();
  private readonly policies = new Map<string, TrustPolicy>();

  async getServiceAccount(projectId: string, serviceAccountId: string) {
    return this.accounts.get(`${projectId}/${serviceAccountId}`);
  }
  async getServiceAccountByEmail(email: string) {
    return [...this.accounts.values()].find((account) => account.email === email);
  }
  async listServiceAccounts(projectId: string) {
    return [...this.accounts.values()].filter((account) => account.projectId === projectId);
  }
  async saveServiceAccount(account: ServiceAccount, isNew: boolean) {
    if (isNew && (await this.getServiceAccountByEmail(account.email))) {
      throw new AlreadyExistsError(`service account ${account.email}`);
    }
    this.accounts.set(`${account.projectId}/${account.id}`, { ...account });
  }
  async deleteServiceAccount(projectId: string, serviceAccountId: string) {
    return this.accounts.delete(`${projectId}/${serviceAccountId}`);
  }
  async getTrustPolicy(projectId: string, policyId: string) {
    return this.policies.get(`${projectId}/${policyId}`);
  }
  async listTrustPolicies(projectId: string, serviceAccountId: string) {
    return this.sorted().filter((p) => p.projectId === projectId && p.serviceAccountId === serviceAccountId);
  }
  async listTrustPoliciesByIssuer(issuer: string) {
    return this.sorted().filter((p) => p.issuer === issuer);
  }
  async saveTrustPolicy(policy: TrustPolicy) {
    this.policies.set(`${policy.projectId}/${policy.id}`, { ...policy });
  }
  async deleteTrustPolicy(projectId: string, policyId: string) {
    return this.policies.delete(`${projectId}/${policyId}`);
  }

  /** Policy ids are time-ordered (UUIDv7): sorting by id is oldest first. */
  private sorted(): TrustPolicy[] {
    return [...this.policies.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
