/**
 * Protected environments (docs/governance.md, decision 0090): only published versions of actions
 * and views run or show there. `production` is protected unless someone said otherwise, which is also
 * how records stored before protection existed are read: existing projects' production environments
 * became protected without rewriting a record.
 */
import { DoguError } from './errors.ts';
import type { Environment } from './model.ts';

/** The environment id protected when nothing was said (new projects, the demo, older records). */
export const protectedByDefault = 'production';

export function isProtectedEnvironment(environment: Pick<Environment, 'id' | 'protected'>): boolean {
  return environment.protected ?? environment.id === protectedByDefault;
}

/** What the API answers: `protected` always said, so a client never applies the default itself. */
export function environmentAnswer(environment: Environment): Environment {
  return { ...environment, protected: isProtectedEnvironment(environment) };
}

/**
 * A run or a view in a protected environment with nothing published there: 409 that names the thing
 * and says what to do, for the console (which offers Publish to those who may) and API callers alike.
 */
export function nothingPublished(
  what: 'action' | 'view',
  id: string,
  environmentId: string,
  latestVersion: number,
): DoguError {
  const Thing = what === 'action' ? 'Action' : 'View';
  const runs = what === 'action' ? 'runs' : 'shows';
  return new DoguError(
    'state_conflict',
    `${Thing} '${id}' has no version published to environment '${environmentId}', which is protected: ` +
      `only published versions ${what === 'action' ? 'run' : 'show'} there. Someone with the right ` +
      `'publish_versions' publishes a version (the latest is ${latestVersion}) on the ${what}'s Versions ` +
      `screen or with PUT …/${what}s/${id}/publications/${environmentId} {"version": ${latestVersion}}; ` +
      `then it ${runs} there.`,
    {
      extra: {
        reason: 'not_published',
        [what === 'action' ? 'actionId' : 'viewId']: id,
        environmentId,
        latestVersion,
      },
    },
  );
}
