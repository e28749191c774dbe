import type { AdminOptionSettingsData } from '@bourse/protocol';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { KEYS, useOptionSettings } from './api.ts';
import { percent } from './decimals.ts';
import { OptionEditDialog } from './OptionEditDialog.tsx';
import { type Column, DataTable, NoControlNote, Num } from './shared.tsx';

/**
 * Up/down option settings per instrument: on/off, stake limits and the durations with their payout
 * rates. Editing needs `markets.write`; results always come from the recorded feed at expiry.
 */
export default function OptionSettingsScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const me = useStaffMe();
  const client = useQueryClient();
  const settings = useOptionSettings();
  const [editing, setEditing] = useState<AdminOptionSettingsData | null>(null);
  const [saved, setSaved] = useState(false);
  const canEdit = hasPermission(me.data, 'markets.write');

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
    {
      key: 'status',
      label: t('derivatives.common.status'),
      render: (s) => (
        <Badge color={s.enabled ? 'teal' : 'gray'} variant="light" miw="max-content">
          {s.enabled ? t('derivatives.common.enabled') : t('derivatives.common.disabled')}
        </Badge>
      ),
    },
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
              {t('derivatives.options.durationLine', { seconds: d.seconds, rate: percent(d.payout_rate) })}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'updated',
      label: t('derivatives.common.updatedAt'),
      render: (s) => <Num>{formatTime(s.updated_at, lang)}</Num>,
    },
  ];
  if (canEdit)
    columns.push({
      key: 'actions',
      label: t('common.actions'),
      render: (s) => (
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => {
            setSaved(false);
            setEditing(s);
          }}
          data-testid="option-edit"
        >
          {t('derivatives.common.edit')}
        </Button>
      ),
    });

  return (
    <Stack data-testid="option-settings-screen">
      <Title order={2}>{t('derivatives.options.title')}</Title>
      <NoControlNote />
      <Text size="sm" c="dimmed">
        {t('derivatives.options.appliesToNew')}
      </Text>
      <ErrorNote error={settings.error} />
      {saved ? (
        <Alert
          color="teal"
          variant="light"
          withCloseButton
          onClose={() => setSaved(false)}
          data-testid="saved-note"
        >
          {t('derivatives.common.saved')}
        </Alert>
      ) : null}
      {settings.data ? (
        <DataTable
          rows={settings.data.items}
          columns={columns}
          rowKey={(s) => s.symbol}
          rowAttrs={(s) => ({ 'data-symbol': s.symbol })}
          testId="option-settings-table"
          rowTestId="option-settings-row"
          minWidth={1000}
        />
      ) : null}
      {editing ? (
        <OptionEditDialog
          key={editing.symbol}
          settings={editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            setSaved(true);
            await client.invalidateQueries({ queryKey: KEYS.optionSettings });
          }}
        />
      ) : null}
    </Stack>
  );
}
