import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { rememberReturnTo } from '../lib/returnTo.ts';
import { useSessionEndedOn, useToken } from '../lib/session.ts';
import { isOpenPath } from './access.ts';

/**
 * Without a token, only the open paths render; anything else goes to /login, remembering where the
 * visitor wanted to go. A logged-in customer passes everywhere, /login and /404 included.
 */
export function AccessGuard({ children }: { children: ReactNode }) {
  const token = useToken();
  const location = useLocation();
  const justEnded = useSessionEndedOn(location.key);
  if (!token && !isOpenPath(location.pathname)) {
    if (!justEnded) rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/login" replace />;
  }
  return children;
}
