/**
 * Service accounts and OIDC trust policies (spec 2.9, 4.1, 5.1). A service
 * account is a project member like a user (its membership's principalId is
 * its id) and runs with its own role. A trust policy lets an external OIDC ID
 * token be exchanged for an access token of that service account.
 */
export interface ServiceAccount {
  projectId: string;
  /** `sa_<UUIDv7 hex>`. */
  id: string;
  /** Unique across the service: `<name>@<projectId>.sa.dogu`. */
  email: string;
  name: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
  /** Increased to revoke every access token issued for the account so far. */
  tokenGeneration: number;
  disabled?: boolean;
}

/** One rule of a trust policy: the claim at `key` must match `pattern` (syntax in docs/authentication.md). */
export interface BoundClaim {
  key: string;
  pattern: string;
}

export interface TrustPolicy {
  projectId: string;
  serviceAccountId: string;
  /**
   * Chosen by the client (`github-main`, a resource id), unique within the project. Not
   * time-ordered: the matching order is `createdAt` (kept on replacement), then project, then id.
   */
  id: string;
  /** Must equal the token's `iss` exactly (no trailing-slash folding). */
  issuer: string;
  /** Must be one of the token's `aud` values. */
  audience: string;
  boundClaims: BoundClaim[];
  createdAt: string;
  updatedAt: string;
  /** Increased on every change and deletion-recreation: tokens issued under an older generation are revoked. */
  generation: number;
}

export interface IdentityStore {
  getServiceAccount(projectId: string, serviceAccountId: string): Promise<ServiceAccount | undefined>;
  getServiceAccountByEmail(email: string): Promise<ServiceAccount | undefined>;
  listServiceAccounts(projectId: string): Promise<ServiceAccount[]>;
  /** Creates or replaces; AlreadyExistsError when creating and the e-mail is taken. */
  saveServiceAccount(account: ServiceAccount, isNew: boolean): Promise<void>;
  deleteServiceAccount(projectId: string, serviceAccountId: string): Promise<boolean>;

  getTrustPolicy(projectId: string, policyId: string): Promise<TrustPolicy | undefined>;
  listTrustPolicies(projectId: string, serviceAccountId: string): Promise<TrustPolicy[]>;
  /** Every policy of every project whose issuer is exactly `issuer`, oldest first (the matching order). */
  listTrustPoliciesByIssuer(issuer: string): Promise<TrustPolicy[]>;
  saveTrustPolicy(policy: TrustPolicy): Promise<void>;
  deleteTrustPolicy(projectId: string, policyId: string): Promise<boolean>;
}
