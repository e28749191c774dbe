import { formatPercent } from '@bourse/money';
import {
  type AdminC2cOrderData,
  type C2cMerchantState,
  type C2cOfferState,
  type C2cState,
  LOCALE_OF,
} from '@bourse/protocol';
import { Alert, Badge, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';

export const READ_PERMISSION = 'c2c.read';
export const WRITE_PERMISSION = 'c2c.write';
export const DECIDE_PERMISSION = 'c2c.decide';
/** A reason the server accepts (AdminC2c*Body `reason`: 3 to 500 characters). */
export const REASON_MIN = 3;

const ORDER_COLORS: Record<C2cState, string> = {
  pending_match: 'gray',
  matched: 'blue',
  paid: 'teal',
  disputed: 'red',
  completed: 'green',
  expired: 'dark',
  cancelled: 'dark',
  rejected: 'orange',
};
const MERCHANT_COLORS: Record<C2cMerchantState, string> = {
  pending: 'yellow',
  approved: 'green',
  suspended: 'red',
};
const OFFER_COLORS: Record<C2cOfferState, string> = { active: 'green', paused: 'gray' };

export function OrderStateBadge({ state }: { state: C2cState }) {
  const { t } = useTranslation('adminC2c');
  return (
    <Badge color={ORDER_COLORS[state]} variant="light" miw="max-content" data-state={state}>
      {t(`state.${state}`)}
    </Badge>
  );
}

export function MerchantStateBadge({ state }: { state: C2cMerchantState }) {
  const { t } = useTranslation('adminC2c');
  return (
    <Badge color={MERCHANT_COLORS[state]} variant="light" miw="max-content" data-state={state}>
      {t(`merchantState.${state}`)}
    </Badge>
  );
}

export function OfferStateBadge({ state }: { state: C2cOfferState }) {
  const { t } = useTranslation('adminC2c');
  return (
    <Badge color={OFFER_COLORS[state]} variant="light" miw="max-content" data-state={state}>
      {t(`offerState.${state}`)}
    </Badge>
  );
}

/** The signed-in staff member's id and what they may do on the C2C screens. */
export function useC2cStaff(): { staffId: string | null; canWrite: boolean; canDecide: boolean } {
  const me = useStaffMe();
  return {
    staffId: me.data?.staff_id ?? null,
    canWrite: hasPermission(me.data, WRITE_PERMISSION),
    canDecide: hasPermission(me.data, DECIDE_PERMISSION),
  };
}

/** What a staff member without the permission sees instead of the controls. */
export function NoPermission({ permission }: { permission: string }) {
  const { t } = useTranslation('adminC2c');
  return (
    <Alert color="gray" variant="light" p="xs" data-testid="c2c-no-permission" data-permission={permission}>
      {t('common.noPermission', { permission })}
    </Alert>
  );
}

/** Label–value rows of a detail section. */
export function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <Table fz="sm" verticalSpacing={4} withRowBorders={false} data-testid={testId}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td c="dimmed" w="40%" style={{ verticalAlign: 'top' }}>
              {label}
            </Table.Td>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A merchant's completion rate (a percent with 2 decimals from the server), or a dash. */
export function useRateText(): (rate: string | null) => string {
  const lang = useLang();
  return (rate) => (rate === null ? '—' : formatPercent(rate, { locale: LOCALE_OF[lang], digits: 2 }));
}

/** Which side of an order holds the coins to be paid for and which pays the fiat, with their uids. */
export function partiesOf(o: AdminC2cOrderData): {
  buyerRole: 'customer' | 'merchant';
  sellerRole: 'customer' | 'merchant';
  buyerUid: string;
  sellerUid: string;
} {
  // `side` is the customer's: `buy` means the customer buys the coins and pays the fiat.
  const customerBuys = o.side === 'buy';
  const customer = o.customer_uid ?? '—';
  const merchant = o.merchant_uid ?? '—';
  return {
    buyerRole: customerBuys ? 'customer' : 'merchant',
    sellerRole: customerBuys ? 'merchant' : 'customer',
    buyerUid: customerBuys ? customer : merchant,
    sellerUid: customerBuys ? merchant : customer,
  };
}
