import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

/** The three trade screens under the navigation's Trade entry: contracts, spot, up/down options. */
const TRADE_SCREENS = [
  { path: '/preciousMetal', label: 'tradeSwitch.contracts' },
  { path: '/currencyTrade', label: 'tradeSwitch.spot' },
  { path: '/options', label: 'tradeSwitch.options' },
] as const;

export function TradeSwitch() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = TRADE_SCREENS.find((s) => s.path === pathname)?.path ?? '';
  return (
    <SegmentedControl
      size="xs"
      value={current}
      onChange={(path) => navigate(path)}
      data={TRADE_SCREENS.map((s) => ({ value: s.path, label: t(s.label) }))}
      aria-label={t('tradeSwitch.label')}
      data-testid="trade-switch"
      style={{ alignSelf: 'flex-start' }}
    />
  );
}
