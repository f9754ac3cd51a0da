/**
 * Who is signed in. `GET /auth/session` answers the user and the CSRF token (HttpOnly cookie
 * session, docs/authentication.md); without a session the console shows the sign-in screen.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { ApiError, api, setCsrfToken, setUnauthorizedHandler } from '../api/client.ts';
import { apiPaths } from '../api/paths.ts';
import type { Principal, Session } from '../api/types.ts';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; expired: boolean }
  | { status: 'signed-in'; user: Principal }
  | { status: 'failed'; error: unknown };

interface SessionValue {
  user: Principal;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | undefined>(undefined);

/** The signed-in user; only inside the login gate. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession is used outside the signed-in console.');
  return value;
}

export function useSessionLoader(): {
  state: SessionState;
  retry(): void;
  signOut(): Promise<void>;
  /** After a password sign-in: its answer is the session. */
  signedIn(session: Session): void;
} {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const load = useCallback(() => {
    setState({ status: 'loading' });
    api.get<Session>(apiPaths.session).then(
      (session) => {
        setCsrfToken(session.csrfToken);
        setState({ status: 'signed-in', user: session.user });
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401)
          setState({ status: 'signed-out', expired: false });
        else setState({ status: 'failed', error });
      },
    );
  }, []);
  useEffect(() => {
    load();
    setUnauthorizedHandler(() => {
      setCsrfToken(undefined);
      setState((current) =>
        current.status === 'signed-in' ? { status: 'signed-out', expired: true } : current,
      );
    });
    return () => setUnauthorizedHandler(undefined);
  }, [load]);
  const signOut = useCallback(async () => {
    try {
      await api.post(apiPaths.logout);
    } finally {
      setCsrfToken(undefined);
      setState({ status: 'signed-out', expired: false });
    }
  }, []);
  const signedIn = useCallback((session: Session) => {
    setCsrfToken(session.csrfToken);
    setState({ status: 'signed-in', user: session.user });
  }, []);
  return { state, retry: load, signOut, signedIn };
}

export function SessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
