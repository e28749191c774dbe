import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import {
  AboutPage,
  BenefitDetailPage,
  BenefitsPage,
  HelpDetailPage,
  HelpPage,
  NewsDetailPage,
  NewsFlashPage,
  SecurityPage,
  TextPage,
} from '../components/pages.ts';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** The content screens at their routes, signed out by default (every one is open without login). */
export function renderContent(options: ScreenOptions) {
  return renderScreens(
    {
      '/settingNew': <NewsFlashPage />,
      '/setting-newdetail': <NewsDetailPage />,
      '/settingHelp': <HelpPage />,
      '/help': <HelpPage />,
      '/settingHelpdetail': <HelpDetailPage />,
      '/helpDetail': <HelpDetailPage />,
      '/settingAbout': <AboutPage />,
      '/about': <AboutPage />,
      '/security': <SecurityPage />,
      '/benefits': <BenefitsPage />,
      '/benefitsDetail': <BenefitDetailPage />,
      '/text': <TextPage />,
    },
    { signedIn: false, ...options },
  );
}
