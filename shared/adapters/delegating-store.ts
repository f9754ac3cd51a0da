/** Forwards every Store call; decorators override only what they change. */
import type {
  Action,
  DataSource,
  Environment,
  Execution,
  Membership,
  Project,
  User,
} from '../domain/model.ts';
import type { Store } from '../domain/ports.ts';

export class DelegatingStore implements Store {
  constructor(protected readonly inner: Store) {}

  getProject(projectId: string): Promise<Project | undefined> {
    return this.inner.getProject(projectId);
  }
  getEnvironment(projectId: string, environmentId: string): Promise<Environment | undefined> {
    return this.inner.getEnvironment(projectId, environmentId);
  }
  getAction(projectId: string, actionId: string): Promise<Action | undefined> {
    return this.inner.getAction(projectId, actionId);
  }
  getDataSource(projectId: string, dataSourceId: string): Promise<DataSource | undefined> {
    return this.inner.getDataSource(projectId, dataSourceId);
  }
  getMembership(projectId: string, principalId: string): Promise<Membership | undefined> {
    return this.inner.getMembership(projectId, principalId);
  }
  createProject(project: Project): Promise<void> {
    return this.inner.createProject(project);
  }
  createEnvironment(environment: Environment): Promise<void> {
    return this.inner.createEnvironment(environment);
  }
  putMembership(membership: Membership): Promise<void> {
    return this.inner.putMembership(membership);
  }
  putDataSource(dataSource: DataSource): Promise<void> {
    return this.inner.putDataSource(dataSource);
  }
  putAction(action: Action): Promise<void> {
    return this.inner.putAction(action);
  }
  getUserByEmail(email: string): Promise<User | undefined> {
    return this.inner.getUserByEmail(email);
  }
  createUser(user: User): Promise<User> {
    return this.inner.createUser(user);
  }
  putExecution(execution: Execution): Promise<void> {
    return this.inner.putExecution(execution);
  }
  putExecutions(executions: Execution[]): Promise<void> {
    return this.inner.putExecutions(executions);
  }
  getExecution(executionId: string): Promise<Execution | undefined> {
    return this.inner.getExecution(executionId);
  }
  claimMarker(name: string, at: string): Promise<boolean> {
    return this.inner.claimMarker(name, at);
  }
  hasMarker(name: string): Promise<boolean> {
    return this.inner.hasMarker(name);
  }
}
