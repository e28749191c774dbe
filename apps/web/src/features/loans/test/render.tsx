import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { ApplyPage, LoanPage, LoansPage, ScorePage } from '../components/pages.ts';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** The four loan screens in the shared screen harness. */
export function renderLoans(options: ScreenOptions) {
  return renderScreens(
    {
      '/xinyongfen': <ScorePage />,
      '/credit': <ApplyPage />,
      '/repayment2': <LoansPage />,
      '/repaymentNew': <LoanPage />,
    },
    options,
  );
}
