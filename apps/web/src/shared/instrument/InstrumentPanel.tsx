import type { InstrumentData, Lang, PriceState } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Badge, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';
import { useLang } from '../../lib/i18n.ts';
import type { MarketRow } from '../market/logic.ts';
import { daysText, type HoursPart, parseHours, zoneName } from './hours.ts';

function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div style={{ textAlign: 'right' }}>{children}</div>
    </Group>
  );
}

/** Trading hours in the reader's words: days and zone localized, times as written. */
export function HoursText({ hours }: { hours: string }) {
  const { t } = useTranslation('market');
  const lang = useLang() as Lang;
  const parsed = parseHours(hours);
  if (!parsed) return <Text size="sm">{hours}</Text>;
  if (parsed.always) return <Text size="sm">{t('hours.always')}</Text>;
  const zone = (part: HoursPart) => zoneName(part.zone, lang) ?? t('hours.utc');
  const zones = [...new Set(parsed.parts.map(zone))];
  return (
    <Stack gap={0} align="flex-end" data-testid="trading-hours">
      {parsed.parts.map((part) => (
        <Text
          size="sm"
          key={part.kind === 'window' ? `${part.fromDay}${part.fromTime}` : `${part.days.join()}${part.from}`}
        >
          {part.kind === 'window'
            ? t('hours.window', {
                fromDay: daysText([part.fromDay], lang),
                fromTime: part.fromTime,
                toDay: daysText([part.toDay], lang),
                toTime: part.toTime,
              })
            : `${daysText(part.days, lang)} ${
                part.overnight
                  ? t('hours.overnight', { from: part.from, to: part.to })
                  : t('hours.range', { from: part.from, to: part.to })
              }`}
        </Text>
      ))}
      <Text size="xs" c="dimmed">
        {t('hours.zone', { zone: zones.join(' / ') })}
      </Text>
    </Stack>
  );
}

export function MarketStatus({ state }: { state: PriceState }) {
  const { t } = useTranslation('market');
  const [label, color] =
    state === 'closed'
      ? [t('instrument.closed'), 'gray']
      : state === 'halted'
        ? [t('instrument.halted'), 'red']
        : [t('instrument.open'), 'teal'];
  return (
    <Badge variant="light" color={color} data-testid="market-status" data-state={state}>
      {label}
    </Badge>
  );
}

/** Prices (bid/ask/mark), 24 h statistics and the contract specification of one instrument. */
export function InstrumentPanel({ row, spec }: { row: MarketRow; spec: InstrumentData | null | undefined }) {
  const { t } = useTranslation('market');
  const lang = useLang() as Lang;
  return (
    <Paper withBorder radius="md" p="md" data-testid="instrument-panel">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('instrument.prices')}
        </Title>
        <Line label={t('instrument.bid')}>
          <Num value={row.bid} size="sm" fw={600} trend="down" data-testid="panel-bid" />
        </Line>
        <Line label={t('instrument.ask')}>
          <Num value={row.ask} size="sm" fw={600} trend="up" data-testid="panel-ask" />
        </Line>
        <Line label={t('instrument.mark')}>
          <Num value={row.mark} size="sm" fw={600} data-testid="panel-mark" />
        </Line>
        <Line label={t('instrument.updated')}>
          <Text size="sm">
            {row.updated_at > 0 ? formatDateTime(row.updated_at, lang) : t('instrument.noPrice')}
          </Text>
        </Line>
        <Divider my={4} />
        <Title order={3} size="h5">
          {t('instrument.stats')}
        </Title>
        <Stack gap="xs">
          <Line label={t('instrument.open24')}>
            <Num value={row.open_24h} size="sm" />
          </Line>
          <Line label={t('instrument.change24')}>
            <Num value={row.change_pct_24h} percent signed trend="auto" size="sm" fw={600} />
          </Line>
          <Line label={t('instrument.high24')}>
            <Num value={row.high_24h} size="sm" data-testid="panel-high" />
          </Line>
          <Line label={t('instrument.low24')}>
            <Num value={row.low_24h} size="sm" data-testid="panel-low" />
          </Line>
          <Line label={t('instrument.volume24')}>
            <Num value={row.volume_24h} size="sm" />
          </Line>
          <Line label={t('instrument.turnover24')}>
            <Num value={row.turnover_24h} size="sm" />
          </Line>
        </Stack>
        <Divider my={4} />
        <Title order={3} size="h5">
          {t('instrument.specs')}
        </Title>
        <Line label={t('instrument.status')}>
          <MarketStatus state={row.state} />
        </Line>
        {spec ? (
          <>
            <Line label={t('instrument.hours')}>
              <HoursText hours={spec.trading_hours} />
            </Line>
            <Line label={t('instrument.base')}>
              <Text size="sm" translate="no">
                {spec.base}
              </Text>
            </Line>
            <Line label={t('instrument.quote')}>
              <Text size="sm" translate="no">
                {spec.quote}
              </Text>
            </Line>
            <Line label={t('instrument.tick')} testId="spec-tick">
              <Num value={spec.price_tick} size="sm" />
            </Line>
            <Line label={t('instrument.lot')} testId="spec-lot">
              <Num value={spec.lot_size} size="sm" />
            </Line>
            <Line label={t('instrument.contractSize')} testId="spec-contract">
              <Num value={spec.contract_size} size="sm" />
            </Line>
            <Line label={t('instrument.maxLeverage')} testId="spec-leverage">
              <Text size="sm">{t('instrument.leverage', { value: spec.max_leverage })}</Text>
            </Line>
            {spec.expiry_at ? (
              <Line label={t('instrument.expiry')}>
                <Text size="sm">{formatDateTime(spec.expiry_at, lang)}</Text>
              </Line>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
