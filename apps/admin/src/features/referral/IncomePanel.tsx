import {
  Badge,
  Button,
  Group,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure } from '../../app/ui.tsx';
import { type IncomeFilter, PAGE_SIZE, useReferralIncome } from './api.ts';
import { percentOfBps } from './logic.ts';

const EMPTY: IncomeFilter = { inviter: '', invitee: '', status: '' };

/** Income lines, paid or excluded, each linked to its trade, the fee's entry and its own entry. */
export function IncomePanel() {
  const { t } = useTranslation('adminReferral');
  const lang = useLang();
  const [typed, setTyped] = useState<IncomeFilter>(EMPTY);
  const [filter, setFilter] = useState<IncomeFilter>(EMPTY);
  const [page, setPage] = useState(1);
  const list = useReferralIncome(filter, page);
  const apply = (next: IncomeFilter) => {
    setFilter(next);
    setPage(1);
  };
  return (
    <Stack gap="md" data-testid="referral-income">
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('income.inviter')}
          value={typed.inviter}
          onChange={(e) => setTyped({ ...typed, inviter: e.currentTarget.value.trim() })}
          w={160}
          data-testid="referral-filter-inviter"
        />
        <TextInput
          label={t('income.invitee')}
          value={typed.invitee}
          onChange={(e) => setTyped({ ...typed, invitee: e.currentTarget.value.trim() })}
          w={160}
          data-testid="referral-filter-invitee"
        />
        <SegmentedControl
          value={typed.status}
          onChange={(v) => setTyped({ ...typed, status: v as IncomeFilter['status'] })}
          data={[
            { value: '', label: t('income.all') },
            { value: 'paid', label: t('income.paid') },
            { value: 'excluded', label: t('income.excluded') },
          ]}
        />
        <Button onClick={() => apply(typed)} data-testid="referral-filter-apply">
          {t('income.filter')}
        </Button>
      </Group>
      <ErrorNote error={list.error} />
      {list.data && list.data.items.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      {list.data && list.data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={1100}>
          <Table verticalSpacing="xs" fz="sm" data-testid="referral-income-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('income.time')}</Table.Th>
                <Table.Th>{t('income.inviter')}</Table.Th>
                <Table.Th>{t('income.invitee')}</Table.Th>
                <Table.Th>{t('income.level')}</Table.Th>
                <Table.Th>{t('income.status')}</Table.Th>
                <Table.Th ta="right">{t('income.fee')}</Table.Th>
                <Table.Th>{t('income.share')}</Table.Th>
                <Table.Th ta="right">{t('income.amount')}</Table.Th>
                <Table.Th>{t('income.trade')}</Table.Th>
                <Table.Th>{t('income.feeEntry')}</Table.Th>
                <Table.Th>{t('income.incomeEntry')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((row) => (
                <Table.Tr key={row.id} data-testid="referral-income-row" data-status={row.status}>
                  <Table.Td>
                    <Figure>{formatTime(row.created_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>{row.inviter_uid}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>{row.invitee_uid}</Figure>
                  </Table.Td>
                  <Table.Td>{row.level}</Table.Td>
                  <Table.Td>
                    {row.status === 'paid' ? (
                      <Badge color="teal" variant="light">
                        {t('income.paid')}
                      </Badge>
                    ) : (
                      <Badge color="orange" variant="light" title={row.excluded_reason ?? ''}>
                        {t('income.excluded')} · {t(`reasons.${row.excluded_reason ?? 'self'}`)}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Amount value={row.fee} currency={row.fee_currency} suffix />
                  </Table.Td>
                  <Table.Td>{percentOfBps(row.share_bps)} %</Table.Td>
                  <Table.Td ta="right">
                    <Amount value={row.amount} currency={row.fee_currency} suffix />
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="xs" ff="monospace">
                      {row.source_id}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="xs" ff="monospace">
                      {row.fee_entry_id}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="xs" ff="monospace">
                      {row.income_entry_id ?? '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {list.data && list.data.total > PAGE_SIZE ? (
        <Pagination value={page} onChange={setPage} total={Math.ceil(list.data.total / PAGE_SIZE)} />
      ) : null}
    </Stack>
  );
}
