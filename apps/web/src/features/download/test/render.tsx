import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { DownloadPage } from '../components/DownloadPage.tsx';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** /downLoad in the shared harness (open without login). */
export function renderDownload(
  options: Partial<ScreenOptions> & { userAgent?: string; touchPoints?: number } = {},
) {
  const { userAgent, touchPoints, ...rest } = options;
  const device = userAgent === undefined ? undefined : { userAgent, maxTouchPoints: touchPoints ?? 0 };
  return renderScreens(
    { '/downLoad': <DownloadPage {...(device ? { device } : {})} /> },
    { route: '/downLoad', signedIn: false, ...rest },
  );
}
