import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { AgreementNotice } from '../components/AgreementNotice.tsx';
import { AgreementPage } from '../components/AgreementPage.tsx';
import { DocumentsPage } from '../components/DocumentsPage.tsx';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** The agreement screens in the shared harness; `/shell` is the app shell's notice on its own. */
export function renderAgreement(options: ScreenOptions) {
  return renderScreens(
    {
      '/userAgreement': <AgreementPage />,
      '/agrt': <AgreementPage />,
      '/agreement': <AgreementPage />,
      '/bps': <DocumentsPage />,
      '/shell': <AgreementNotice />,
    },
    options,
  );
}
