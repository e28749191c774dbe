import type { AdminContractSettingsData } from '@bourse/protocol';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { KEYS, useContractSettings } from './api.ts';
import { ContractEditDialog } from './ContractEditDialog.tsx';
import { SettingsScreen, useStatusColumn } from './SettingsScreen.tsx';
import { type Column, Num, percentText } from './shared.tsx';

/**
 * Contract settings per instrument: spread, fee per lot, leverage caps (operator / instrument /
 * effective after the jurisdiction profile), lots, liquidation level, top-up maximum and funding.
 * Editing needs `markets.write`; every change carries a reason and applies to new orders only.
 */
export default function ContractSettingsScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const settings = useContractSettings();
  const status = useStatusColumn<AdminContractSettingsData>();

  const columns: Column<AdminContractSettingsData>[] = [
    {
      key: 'symbol',
      label: t('derivatives.common.symbol'),
      render: (s) => (
        <Stack gap={0}>
          <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {s.symbol}
          </Text>
          <Text size="xs" c="dimmed">
            {s.name}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'class',
      wide: true,
      label: t('derivatives.contracts.class'),
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm">{t(`derivatives.assetClass.${s.asset_class}`)}</Text>
          <Text size="xs" c="dimmed">
            {t(`derivatives.leverageClass.${s.leverage_class}`)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'kind',
      wide: true,
      label: t('derivatives.contracts.kind'),
      render: (s) => t(`derivatives.kind.${s.kind}`),
    },
    status,
    {
      key: 'spread',
      label: t('derivatives.contracts.spread'),
      align: 'right',
      render: (s) => <Num>{s.spread}</Num>,
    },
    {
      key: 'fee',
      label: t('derivatives.contracts.fee'),
      align: 'right',
      render: (s) => <Num>{s.fee_per_lot}</Num>,
    },
    {
      key: 'leverage',
      label: (
        <Stack gap={0}>
          <span>{t('derivatives.contracts.leverage')}</span>
          <Text span size="xs" c="dimmed" fw={400}>
            {t('derivatives.contracts.leverageParts')}
          </Text>
        </Stack>
      ),
      align: 'right',
      render: (s) => (
        <Num>{`${s.max_leverage}× / ${s.instrument_max_leverage}× / ${s.effective_max_leverage}×`}</Num>
      ),
    },
    {
      key: 'lots',
      label: t('derivatives.contracts.lots'),
      align: 'right',
      render: (s) => <Num>{`${s.min_lots} / ${s.max_lots}`}</Num>,
    },
    {
      key: 'liquidation',
      wide: true,
      label: t('derivatives.contracts.liquidation'),
      align: 'right',
      render: (s) => <Num>{percentText(s.liquidation_level, lang)}</Num>,
    },
    {
      key: 'topup',
      wide: true,
      label: t('derivatives.contracts.topup'),
      align: 'right',
      render: (s) => <Num>{s.margin_topup_max}</Num>,
    },
    {
      key: 'funding',
      wide: true,
      label: t('derivatives.contracts.funding'),
      align: 'right',
      render: (s) => (
        <Num>
          {s.funding_rate !== null && s.funding_interval_hours !== null
            ? t('derivatives.contracts.fundingEvery', {
                rate: percentText(s.funding_rate, lang),
                hours: s.funding_interval_hours,
              })
            : null}
        </Num>
      ),
    },
  ];

  return (
    <SettingsScreen
      testId="contract-settings-screen"
      title={t('derivatives.contracts.title')}
      note={t('derivatives.contracts.appliesToNew')}
      query={settings}
      queryKey={KEYS.contractSettings}
      columns={columns}
      tableTestId="contract-settings-table"
      rowTestId="contract-settings-row"
      editTestId="contract-edit"
      showLoading
      Editor={ContractEditDialog}
    />
  );
}
