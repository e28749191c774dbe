import { formatPercent } from '@bourse/money';
import {
  type AdminLaunchpadRunData,
  type LaunchpadProjectState,
  type LaunchpadSubscriptionState,
  type LaunchpadTokenState,
  LOCALE_OF,
} from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Badge, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';

export const READ_PERMISSION = 'launchpad.read';
export const WRITE_PERMISSION = 'launchpad.write';

const PROJECT_COLORS: Record<LaunchpadProjectState, string> = {
  draft: 'gray',
  announced: 'blue',
  open: 'teal',
  closed: 'yellow',
  allocating: 'orange',
  distributed: 'green',
  failed: 'red',
  refunded: 'dark',
};
const SUBSCRIPTION_COLORS: Record<LaunchpadSubscriptionState, string> = {
  under_review: 'yellow',
  passed: 'blue',
  not_passed: 'gray',
  allocated: 'teal',
  issuance_failed: 'red',
  refunded: 'dark',
};
const TOKEN_COLORS: Record<LaunchpadTokenState, string> = {
  none: 'gray',
  locked: 'orange',
  released: 'teal',
};

export function ProjectStateBadge({ state }: { state: LaunchpadProjectState }) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Badge
      color={PROJECT_COLORS[state]}
      variant="light"
      miw="max-content"
      style={{ overflow: 'visible' }}
      data-testid="launchpad-project-state"
      data-state={state}
    >
      {t(`state.${state}`)}
    </Badge>
  );
}

export function SubscriptionStateBadge({ state }: { state: LaunchpadSubscriptionState }) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Badge color={SUBSCRIPTION_COLORS[state]} variant="light" miw="max-content" data-state={state}>
      {t(`subscriptionState.${state}`)}
    </Badge>
  );
}

export function TokenStateBadge({ state }: { state: LaunchpadTokenState }) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Badge color={TOKEN_COLORS[state]} variant="outline" miw="max-content" data-state={state}>
      {t(`token.${state}`)}
    </Badge>
  );
}

/**
 * A quantity of coins with every digit the server sent, grouped in the reader's locale (@bourse/ui
 * `Num`); a new coin has no display scale of its own.
 */
export function Coins({ value, coin }: { value: string | null | undefined; coin?: string }) {
  return <Num size="sm" value={value} suffix={coin ? ` ${coin}` : undefined} empty="—" />;
}

/** A count of lots (a whole number as a decimal string). */
export function Lots({ value }: { value: string | null | undefined }) {
  return <Num size="sm" value={value} empty="—" />;
}

/** A rate in percent with every digit it has (at least two): a fee rate, the margin ratio, progress. */
export function useRateText(): (rate: string) => string {
  const lang = useLang();
  return (rate) =>
    formatPercent(rate, { locale: LOCALE_OF[lang], digits: Math.max(2, (rate.split('.')[1] ?? '').length) });
}

/**
 * What a run's `amount` is counted in: USDT for the review (released at once), the allocation
 * (paid) and refunds; the coin for releases (tokens unlocked).
 */
export function runCurrency(kind: AdminLaunchpadRunData['kind'], coin: string): string {
  return kind === 'release' ? coin : 'USDT';
}

/** Whether the signed-in staff member may create projects and act on them. */
export function useCanWrite(): boolean {
  const me = useStaffMe();
  return hasPermission(me.data, WRITE_PERMISSION);
}

/** What a staff member without `launchpad.write` sees instead of the controls. */
export function NoPermission() {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Alert color="gray" variant="light" p="xs" data-testid="launchpad-no-permission">
      {t('common.noPermission', { permission: WRITE_PERMISSION })}
    </Alert>
  );
}

/** The sentence every launchpad screen carries: the job runs the project, no screen sets an outcome. */
export function NoControl() {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Alert color="blue" variant="light" data-testid="launchpad-no-control">
      <Text size="sm">{t('noControl')}</Text>
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
            <Table.Td c="dimmed" w="45%" style={{ verticalAlign: 'top' }}>
              {label}
            </Table.Td>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
