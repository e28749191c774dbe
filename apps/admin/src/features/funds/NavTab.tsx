import type { FundModelId } from '@bourse/protocol';
import { SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';
import { useNav } from './api.ts';

/** A model's hourly NAV per unit from recorded prices, newest first. */
export function NavTab() {
  const { t } = useTranslation('adminFunds');
  const lang = useLang();
  const [model, setModel] = useState<FundModelId>('balanced');
  const nav = useNav(model);
  const rows = [...(nav.data ?? [])].reverse();
  return (
    <Stack>
      <SegmentedControl
        w={320}
        value={model}
        onChange={(v) => setModel(v as FundModelId)}
        data={(['balanced', 'low_risk'] as const).map((m) => ({ value: m, label: t(`orders.models.${m}`) }))}
      />
      <ErrorNote error={nav.error} />
      <Table fz="sm" verticalSpacing={4} maw={480} data-testid="funds-nav-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('navTab.at')}</Table.Th>
            <Table.Th ta="right">{t('navTab.nav')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((p) => (
            <Table.Tr key={p.at}>
              <Table.Td>
                <Figure>{formatTime(p.at, lang)}</Figure>
              </Table.Td>
              <Table.Td ta="right">
                <Figure>{p.nav}</Figure>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && !nav.isPending ? <Text c="dimmed">{t('navTab.empty')}</Text> : null}
    </Stack>
  );
}
