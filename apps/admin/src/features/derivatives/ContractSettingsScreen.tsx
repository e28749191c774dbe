import type { AdminContractSettingsData } from '@bourse/protocol';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { KEYS, useContractSettings } from './api.ts';
import { ContractEditDialog } from './ContractEditDialog.tsx';
import { percent } from './decimals.ts';
import { type Column, DataTable, NoControlNote, Num } from './shared.tsx';

/**
 * Contract settings per instrument: spread, fee per lot, leverage caps (operator / instrument /
 * effective after the jurisdiction profile), lots, liquidation level, top-up maximum and funding.
 * Editing needs `markets.write`; every change carries a reason and applies to new orders only.
 */
export default function ContractSettingsScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const me = useStaffMe();
  const client = useQueryClient();
  const settings = useContractSettings();
  const [editing, setEditing] = useState<AdminContractSettingsData | null>(null);
  const [saved, setSaved] = useState(false);
  const canEdit = hasPermission(me.data, 'markets.write');

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
    { key: 'kind', label: t('derivatives.contracts.kind'), render: (s) => t(`derivatives.kind.${s.kind}`) },
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
      label: t('derivatives.contracts.liquidation'),
      align: 'right',
      render: (s) => <Num>{percent(s.liquidation_level)}</Num>,
    },
    {
      key: 'topup',
      label: t('derivatives.contracts.topup'),
      align: 'right',
      render: (s) => <Num>{s.margin_topup_max}</Num>,
    },
    {
      key: 'funding',
      label: t('derivatives.contracts.funding'),
      align: 'right',
      render: (s) => (
        <Num>
          {s.funding_rate !== null && s.funding_interval_hours !== null
            ? t('derivatives.contracts.fundingEvery', {
                rate: percent(s.funding_rate),
                hours: s.funding_interval_hours,
              })
            : null}
        </Num>
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
          data-testid="contract-edit"
        >
          {t('derivatives.common.edit')}
        </Button>
      ),
    });

  return (
    <Stack data-testid="contract-settings-screen">
      <Title order={2}>{t('derivatives.contracts.title')}</Title>
      <NoControlNote />
      <Text size="sm" c="dimmed">
        {t('derivatives.contracts.appliesToNew')}
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
          testId="contract-settings-table"
          rowTestId="contract-settings-row"
          minWidth={1500}
        />
      ) : (
        <Group>
          <Text size="sm" c="dimmed">
            {t('common.loading')}
          </Text>
        </Group>
      )}
      {editing ? (
        <ContractEditDialog
          key={editing.symbol}
          settings={editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            setSaved(true);
            await client.invalidateQueries({ queryKey: KEYS.contractSettings });
          }}
        />
      ) : null}
    </Stack>
  );
}
