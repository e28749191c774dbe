import type { AdminOptionSettingsData } from '@bourse/protocol';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { KEYS, useOptionSettings } from './api.ts';
import { OptionEditDialog } from './OptionEditDialog.tsx';
import { SettingsScreen, useStatusColumn } from './SettingsScreen.tsx';
import { type Column, Num, percentText } from './shared.tsx';

/**
 * Up/down option settings per instrument: on/off, stake limits and the durations with their payout
 * rates. Editing needs `markets.write`; results always come from the recorded feed at expiry.
 */
export default function OptionSettingsScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const settings = useOptionSettings();
  const status = useStatusColumn<AdminOptionSettingsData>();

  const columns: Column<AdminOptionSettingsData>[] = [
    {
      key: 'symbol',
      label: t('derivatives.common.symbol'),
      render: (s) => (
        <Stack gap={0}>
          <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {s.symbol}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`derivatives.assetClass.${s.asset_class}`)}
          </Text>
        </Stack>
      ),
    },
    status,
    {
      key: 'stake',
      label: t('derivatives.options.stake'),
      align: 'right',
      render: (s) => <Num>{`${s.min_stake} / ${s.max_stake}`}</Num>,
    },
    {
      key: 'durations',
      label: t('derivatives.options.durations'),
      align: 'right',
      render: (s) => (
        <Group gap={4} justify="flex-end" data-testid="option-durations">
          {s.durations.map((d) => (
            <Badge key={d.seconds} variant="outline" color="gray" tt="none" miw="max-content">
              {t('derivatives.options.durationLine', {
                seconds: d.seconds,
                rate: percentText(d.payout_rate, lang),
              })}
            </Badge>
          ))}
        </Group>
      ),
    },
  ];

  return (
    <SettingsScreen
      testId="option-settings-screen"
      title={t('derivatives.options.title')}
      note={t('derivatives.options.appliesToNew')}
      query={settings}
      queryKey={KEYS.optionSettings}
      columns={columns}
      tableTestId="option-settings-table"
      rowTestId="option-settings-row"
      editTestId="option-edit"
      minWidth={1000}
      Editor={OptionEditDialog}
    />
  );
}
