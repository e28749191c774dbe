import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { ServicePage } from '../components/ServicePage.tsx';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** `/service` in the shared screen harness. */
export function renderService(options: Partial<ScreenOptions> = {}) {
  return renderScreens({ '/service': <ServicePage /> }, { route: '/service', ...options });
}
