import type { StaffMe } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, staffToken } from './api.ts';

/** The staff token of this tab (sessionStorage: closing the tab logs out); re-renders on change. */
export function useStaffToken(): string | null {
  return useSyncExternalStore(staffToken.subscribe, staffToken.get, () => null);
}

/** The signed-in staff member and their permissions (null while logged out). */
export function useStaffMe() {
  const token = useStaffToken();
  return useQuery({
    queryKey: ['staffMe', token],
    queryFn: () => api.get<StaffMe>('staffMe'),
    enabled: token !== null,
    staleTime: 60_000,
  });
}

export function hasPermission(me: StaffMe | undefined, permission: string): boolean {
  return me?.permissions.includes(permission) ?? false;
}
