import type {
  AdminLaunchpadMarketBody,
  AdminLaunchpadProjectBody,
  AdminLaunchpadProjectData,
  AdminLaunchpadRunsData,
  AdminLaunchpadSubscriptionData,
  LaunchpadSubscriptionState,
  Paged,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import type { ProjectAction } from './projectForm.ts';

/**
 * The back office's launchpad calls (`/api/admin/launchpad/*`, packages/protocol/src/launchpad.ts):
 * reading needs `launchpad.read`; creating, announcing, withdrawing and paying the issuer
 * `launchpad.write` (each audited with a reason).
 */

export const launchpadKeys = {
  all: ['launchpad'] as const,
  projects: ['launchpad', 'projects'] as const,
  subscriptions: (filter: SubscriptionFilter) => ['launchpad', 'subscriptions', filter] as const,
  runs: (projectId: string) => ['launchpad', 'runs', projectId] as const,
};

/** Every project, drafts included, newest first. */
export function useLaunchpadProjects() {
  return useQuery({
    queryKey: launchpadKeys.projects,
    queryFn: () => api.get<{ items: AdminLaunchpadProjectData[] }>('launchpad/projects'),
  });
}

export type SubscriptionFilter = {
  project_id?: string;
  state?: LaunchpadSubscriptionState;
  uid?: string;
  page: number;
  page_size: number;
};

export function useLaunchpadSubscriptions(filter: SubscriptionFilter) {
  return useQuery({
    queryKey: launchpadKeys.subscriptions(filter),
    queryFn: () => api.get<Paged<AdminLaunchpadSubscriptionData>>('launchpad/subscriptions', filter),
  });
}

/** The job's runs over one project (none asked for until a project is chosen). */
export function useLaunchpadRuns(projectId: string | null) {
  return useQuery({
    queryKey: launchpadKeys.runs(projectId ?? ''),
    queryFn: () =>
      api.get<AdminLaunchpadRunsData>(`launchpad/projects/${encodeURIComponent(projectId ?? '')}/runs`),
    enabled: projectId !== null,
  });
}

/** Every write refreshes every launchpad screen (a state change moves counts, escrow and runs). */
function useLaunchpadWrite<I, O>(call: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: launchpadKeys.all }),
  });
}

export const useCreateProject = () =>
  useLaunchpadWrite((body: AdminLaunchpadProjectBody) =>
    api.postJson<AdminLaunchpadProjectData>('launchpad/projects', body),
  );

export const useProjectAction = () =>
  useLaunchpadWrite((input: { id: string; action: ProjectAction; reason: string }) =>
    api.postJson<AdminLaunchpadProjectData>(`launchpad/projects/${encodeURIComponent(input.id)}/action`, {
      action: input.action,
      reason: input.reason,
    }),
  );

export const useOpenMarket = () =>
  useLaunchpadWrite((input: { id: string } & Omit<AdminLaunchpadMarketBody, 'token' | 'lang' | 'rtoken'>) => {
    const { id, ...body } = input;
    return api.postJson<AdminLaunchpadProjectData>(
      `launchpad/projects/${encodeURIComponent(id)}/market`,
      body,
    );
  });
