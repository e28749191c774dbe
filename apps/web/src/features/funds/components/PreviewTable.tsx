import { bpsPercentText, moneyScaleOf } from '@bourse/money';
import type { EtfPreviewData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const USDT = moneyScaleOf('USDT');

/** The server's plan for an amount: per asset the quantity, reference price, value and fee; cash; fees. */
export function PreviewTable({ preview }: { preview: EtfPreviewData }) {
  const { t } = useTranslation('funds');
  return (
    <Stack gap={6} data-testid="etf-preview" data-amount={preview.amount}>
      <Text size="sm" fw={600}>
        {t('buy.preview')}
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('buy.asset')}</Table.Th>
              <Table.Th ta="right">{t('buy.quantity')}</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                {t('buy.price')}
              </Table.Th>
              <Table.Th ta="right">{t('buy.value')}</Table.Th>
              <Table.Th ta="right">{t('buy.fee')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.legs.map((l) => (
              <Table.Tr key={l.asset} data-testid={`etf-preview-${l.asset}`}>
                <Table.Td translate="no">
                  {l.asset} <Text span size="xs" c="dimmed">{`${bpsPercentText(l.weight_bps)}%`}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={l.quantity} />
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  <Num value={l.price} />
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={l.value} kind="money" scale={USDT} />
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={l.fee} kind="money" scale={USDT} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm">{t('buy.keptCash')}</Text>
        <Num value={preview.cash} kind="money" scale={USDT} suffix=" USDT" data-testid="etf-preview-cash" />
      </Group>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {t('buy.totalFees')}
        </Text>
        <Num
          value={preview.fees}
          kind="money"
          scale={USDT}
          suffix=" USDT"
          fw={600}
          data-testid="etf-preview-fees"
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('buy.previewHint')}
      </Text>
    </Stack>
  );
}
