/** The providers a console screen needs, set up as in the app for project `demo`, environment `development`. */
import type { ComponentProps, ReactNode } from 'react';
import { SessionProvider } from '../app/session.tsx';
import { type Workspace, WorkspaceProvider, workspaceHref } from '../app/workspace.tsx';
import { ToastProvider } from '../components/index.ts';
import { I18nProvider } from '../i18n/index.tsx';

export const demoWorkspace: Workspace = {
  projectId: 'demo',
  environmentId: 'development',
  projects: [],
  environments: [],
  project: undefined,
  environment: undefined,
  href: (path: string) => workspaceHref('demo', 'development', path),
};

type Session = ComponentProps<typeof SessionProvider>['value'];

/** English, toasts, the demo workspace (with `environments` when given) and, when given, a signed-in session. */
export function InConsole({
  session,
  environments,
  children,
}: {
  session?: Session;
  environments?: Workspace['environments'];
  children: ReactNode;
}) {
  const workspace = environments ? { ...demoWorkspace, environments } : demoWorkspace;
  const inWorkspace = <WorkspaceProvider value={workspace}>{children}</WorkspaceProvider>;
  return (
    <I18nProvider language="en">
      <ToastProvider>
        {session ? <SessionProvider value={session}>{inWorkspace}</SessionProvider> : inWorkspace}
      </ToastProvider>
    </I18nProvider>
  );
}
