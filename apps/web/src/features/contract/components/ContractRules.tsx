import { type ContractInstrumentData, DERIVATIVES_LIMITS } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { HoursText } from '../../../shared/instrument/InstrumentPanel.tsx';
import { fractionPct } from '../logic.ts';

function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div
        style={{
          textAlign: 'right',
          fontSize: 'var(--mantine-font-size-xs)',
          fontVariantNumeric: 'tabular-nums',
        }}
      >
        {children}
      </div>
    </Group>
  );
}

/** Every rule an order is checked against, as the server states it (`getContracts`). */
export function ContractRules({ instrument: i }: { instrument: ContractInstrumentData }) {
  const { t } = useTranslation('contract');
  const lang = useLang();
  const level = fractionPct(i.liquidation_level) ?? i.liquidation_level;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="contract-rules">
      <Text fw={600} size="sm" mb={6}>
        {t('spec.title')}
      </Text>
      <Stack gap={5}>
        <Line label={t('spec.kind')}>{t(`kind.${i.kind}`)}</Line>
        <Line label={t('spec.contractSize')} testId="rule-lot-size">
          {t('spec.lotSize', { size: i.contract_size, base: i.base })}
        </Line>
        <Line label={t('spec.tick')}>
          {i.price_tick} <span translate="no">{i.quote}</span>
        </Line>
        <Line label={t('spec.lotStep')}>{i.lot_step}</Line>
        <Line label={t('spec.minLots')}>{i.min_lots}</Line>
        <Line label={t('spec.maxLots')}>
          <Num value={i.max_lots} size="xs" />
        </Line>
        <Line label={t('spec.maxLeverage')} testId="rule-max-leverage">
          {i.max_leverage}×
        </Line>
        <Line label={t('spec.spread')}>{i.spread}</Line>
        <Line label={t('spec.feePerLot')} testId="rule-fee">
          <Num value={i.fee_per_lot} size="xs" suffix=" USDT" />
        </Line>
        <Line label={t('spec.liquidation')} testId="rule-liquidation">
          {level}%
        </Line>
        <Line label={t('spec.topupMax')} testId="rule-topup">
          <Num value={i.margin_topup_max} size="xs" suffix=" USDT" />
        </Line>
        <Line label={t('spec.openMax')} testId="rule-open-max">
          {DERIVATIVES_LIMITS.openPerInstrumentMax}
        </Line>
        {i.funding_rate !== null ? (
          <Line label={t('spec.funding')}>
            {fractionPct(i.funding_rate) ?? i.funding_rate}%
            {i.funding_interval_hours
              ? ` · ${t('spec.fundingEvery', { hours: i.funding_interval_hours })}`
              : ''}
          </Line>
        ) : null}
        {i.next_funding_at ? (
          <Line label={t('spec.nextFunding')}>{formatDateTime(i.next_funding_at, lang)}</Line>
        ) : null}
        {i.expiry_at ? <Line label={t('spec.expiry')}>{formatDateTime(i.expiry_at, lang)}</Line> : null}
        <Line label={t('header.hours')}>
          <HoursText hours={i.trading_hours} />
        </Line>
        {i.conversion.via ? (
          <Text size="xs" c="dimmed">
            {t('spec.conversion', { rate: i.conversion.rate, via: i.conversion.via })}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed" data-testid="rule-risk-rate">
          {t('spec.riskRate', { level })}
        </Text>
      </Stack>
    </Paper>
  );
}
