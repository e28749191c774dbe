import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { InvitePage } from '../components/InvitePage.tsx';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** `/invite` in the shared screen harness. */
export function renderInvite(options: Partial<ScreenOptions> = {}) {
  return renderScreens({ '/invite': <InvitePage /> }, { route: '/invite', ...options });
}
