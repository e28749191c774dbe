import { afterEach } from 'vitest';
import { setNowSource } from '../../../lib/serverClock.ts';
import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import {
  AccountsPage,
  CreatePage,
  OffersPage,
  OrderPage,
  OrdersPage,
  RulesPage,
} from '../components/pages.ts';
import { NOW } from './fixtures.ts';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

/** The six C2C screens in the shared screen harness, the clock fixed at `NOW` (or `now`). */
export function renderC2c(options: ScreenOptions & { now?: number }) {
  const now = options.now ?? NOW;
  setNowSource(() => now);
  return renderScreens(
    {
      '/c2c_index': <OffersPage />,
      '/c2c_create': <CreatePage />,
      '/c2c_order': <OrdersPage />,
      '/c2c_submit': <OrderPage />,
      '/c2c_account': <AccountsPage />,
      '/c2c_rule': <RulesPage />,
    },
    options,
  );
}

afterEach(() => setNowSource(null));
