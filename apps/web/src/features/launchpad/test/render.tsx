import { afterEach } from 'vitest';
import { setNowSource } from '../../../lib/serverClock.ts';
import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { ProjectListPage, ProjectPage, ProofPage, RecordsPage } from '../components/pages.ts';
import { NOW } from './fixtures.ts';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** The four launchpad screens in the shared screen harness, the clock fixed at `NOW` (or `now`). */
export function renderLaunchpad(options: ScreenOptions & { now?: number }) {
  const now = options.now ?? NOW;
  setNowSource(() => now);
  return renderScreens(
    {
      '/subscription': <ProjectListPage />,
      '/subscriptionBuy': <ProjectPage />,
      '/subscriptionRecord': <RecordsPage />,
      '/subscriptionProof': <ProofPage />,
    },
    options,
  );
}

afterEach(() => setNowSource(null));
