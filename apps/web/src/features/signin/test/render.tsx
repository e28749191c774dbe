import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { SignRulePage } from '../components/SignRulePage.tsx';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** `/signRule` in the shared screen harness. */
export function renderSignRule(options: Partial<ScreenOptions> = {}) {
  return renderScreens({ '/signRule': <SignRulePage /> }, { route: '/signRule', ...options });
}
