import { moneyScaleOf } from '@bourse/money';
import { Num } from '@bourse/ui';
import { Card, Group, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isZero } from '../logic.ts';
import { StaleBadge } from './StaleBadge.tsx';

export type AssetRowFigures = {
  currency: string;
  available: string;
  frozen: string;
  total: string;
  value_usdt: string | null;
  price_stale: boolean;
};

/** One currency on a phone: value (stale when its price is), available, frozen, and its actions. */
export function AssetRowCard({
  row,
  actions,
  testId,
}: {
  row: AssetRowFigures;
  actions: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation('assets');
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Group justify="space-between">
        <Text fw={700}>{row.currency}</Text>
        <Group gap={6}>
          <StaleBadge show={row.price_stale && !isZero(row.total)} />
          <Num value={row.value_usdt} kind="fiat" empty={t('overview.noPrice')} suffix=" USDT" size="sm" />
        </Group>
      </Group>
      <SimpleGrid cols={2} mt="xs" spacing={4}>
        <Text size="xs" c="dimmed">
          {t('common.available')}
        </Text>
        <Num
          value={row.available}
          kind="money"
          scale={moneyScaleOf(row.currency)}
          size="sm"
          ta="right"
          component="div"
        />
        <Text size="xs" c="dimmed">
          {t('common.frozen')}
        </Text>
        <Num
          value={row.frozen}
          kind="money"
          scale={moneyScaleOf(row.currency)}
          size="sm"
          ta="right"
          component="div"
          opacity={0.7}
        />
      </SimpleGrid>
      <Group mt="sm" grow>
        {actions}
      </Group>
    </Card>
  );
}
