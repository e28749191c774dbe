import { formatPercent } from '@bourse/money';
import type { EarnFundingRequestState, EarnOrderState, EarnProductState } from '@bourse/protocol';
import { LOCALE_OF } from '@bourse/protocol';
import { Alert, Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';

const PRODUCT_COLORS: Record<EarnProductState, string> = {
  draft: 'gray',
  active: 'teal',
  paused: 'orange',
  closed: 'dark',
};
const ORDER_COLORS: Record<EarnOrderState, string> = {
  in_custody: 'blue',
  redeeming: 'orange',
  redeemed: 'gray',
  completed: 'teal',
};
const REQUEST_COLORS: Record<EarnFundingRequestState, string> = {
  pending: 'yellow',
  approved: 'teal',
  rejected: 'red',
};

export function ProductStateBadge({ state }: { state: EarnProductState }) {
  const { t } = useTranslation('adminEarn');
  return (
    <Badge
      color={PRODUCT_COLORS[state]}
      variant="light"
      style={{ overflow: 'visible' }}
      miw="max-content"
      data-testid="earn-product-state"
      data-state={state}
    >
      {t(`state.${state}`)}
    </Badge>
  );
}

export function OrderStateBadge({ state }: { state: EarnOrderState }) {
  const { t } = useTranslation('adminEarn');
  return (
    <Badge color={ORDER_COLORS[state]} variant="light" data-state={state}>
      {t(`orderState.${state}`)}
    </Badge>
  );
}

export function RequestStateBadge({ state }: { state: EarnFundingRequestState }) {
  const { t } = useTranslation('adminEarn');
  return (
    <Badge
      color={REQUEST_COLORS[state]}
      variant="light"
      data-testid="funding-request-state"
      data-state={state}
    >
      {t(`requestState.${state}`)}
    </Badge>
  );
}

/** A rate in percent with every digit it has (at least two). */
export function useRateText(): (rate: string) => string {
  const lang = useLang();
  return (rate) =>
    formatPercent(rate, { locale: LOCALE_OF[lang], digits: Math.max(2, (rate.split('.')[1] ?? '').length) });
}

/** Whether the signed-in staff member holds a permission (and their id, to tell their own requests). */
export function usePermission(permission: string): {
  allowed: boolean;
  staffId: string | null;
  name: string | null;
} {
  const me = useStaffMe();
  return {
    allowed: hasPermission(me.data, permission),
    staffId: me.data?.staff_id ?? null,
    name: me.data?.name ?? null,
  };
}

/** What a staff member without the permission sees instead of the control. */
export function NoPermission({ permission }: { permission: string }) {
  const { t } = useTranslation('adminEarn');
  return (
    <Alert color="gray" variant="light" p="xs">
      {t('common.noPermission', { permission })}
    </Alert>
  );
}
