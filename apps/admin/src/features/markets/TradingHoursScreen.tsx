import type { AdminTradingHoursData, PriceState } from '@bourse/protocol';
import { Badge, Button, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote, ReasonDialog } from '../../app/ui.tsx';

const HOURS_KEY = ['tradingHours'] as const;
const STATE_COLOR: Record<PriceState, string> = {
  live: 'teal',
  stale: 'yellow',
  closed: 'gray',
  halted: 'red',
};

/**
 * Trading hours of the catalogue (`admin/market/hours`, markets.write): each instrument's schedule
 * and whether it is open now; editing one takes the schedule text and a reason (audited) and
 * applies at once. A bad schedule is refused by the server in the staff member's language.
 */
export default function TradingHoursScreen() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<AdminTradingHoursData | null>(null);
  const [hours, setHours] = useState('');
  const list = useQuery({
    queryKey: [...HOURS_KEY, search.trim()],
    queryFn: () =>
      api.get<{ items: AdminTradingHoursData[] }>('market/hours', { search: search.trim() || undefined }),
  });
  const items = list.data?.items ?? [];

  return (
    <Stack data-testid="trading-hours-screen">
      <Title order={2}>{t('hours.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('hours.intro')}
      </Text>
      <TextInput
        placeholder={t('hours.search')}
        aria-label={t('hours.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maxLength={32}
        maw={360}
        data-testid="hours-search"
      />
      <ErrorNote error={list.error} />
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={360}>
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('hours.symbol')}</Table.Th>
                <Table.Th>{t('hours.hours')}</Table.Th>
                <Table.Th>{t('hours.state')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((i) => (
                <Table.Tr key={i.symbol} data-testid="hours-row" data-symbol={i.symbol}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {i.symbol}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {i.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" translate="no" data-testid="hours-text">
                      {i.trading_hours}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={6} align="flex-start">
                      <Badge color={STATE_COLOR[i.state]} variant="light" data-state={i.state}>
                        {t(`hours.stateLabel.${i.state}`)}
                      </Badge>
                      <Button
                        size="compact-xs"
                        variant="light"
                        onClick={() => {
                          setHours(i.trading_hours);
                          setEditing(i);
                        }}
                        data-testid="hours-edit"
                      >
                        {t('hours.edit')}
                      </Button>
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {list.data && items.length === 0 ? (
          <Text p="md" size="sm" c="dimmed">
            {t('hours.empty')}
          </Text>
        ) : null}
      </Paper>
      <ReasonDialog
        opened={editing !== null}
        title={editing ? t('hours.editTitle', { symbol: editing.symbol }) : ''}
        text={t('hours.editText')}
        confirmLabel={t('hours.save')}
        onClose={() => setEditing(null)}
        onSubmit={async (reason) => {
          if (!editing) return;
          await api.post('market/hours', {
            symbol: editing.symbol,
            hours: hours.trim(),
            reason: reason.trim(),
          });
          await client.invalidateQueries({ queryKey: HOURS_KEY });
        }}
      >
        <TextInput
          label={t('hours.hours')}
          value={hours}
          onChange={(e) => setHours(e.currentTarget.value)}
          maxLength={200}
          ff="monospace"
          data-testid="hours-input"
        />
      </ReasonDialog>
    </Stack>
  );
}
