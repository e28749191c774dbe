import {
  type AdminVerificationQueueData,
  type AdminVerificationQueueRow,
  VERIFICATION_TIERS,
  type VerificationTier,
} from '@bourse/protocol';
import { Badge, Button, Group, Pagination, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';
import { type Column, DataTable } from '../derivatives/shared.tsx';
import { AgeText, FlagBadges } from './parts.tsx';

const PAGE = 20;
/** The queue is re-read this often, so a new submission shows without reloading. */
const REFRESH_MS = 30_000;

type TierFilter = 'all' | VerificationTier;

/**
 * The verification review queue: every submission under review, oldest first, with how long it has
 * waited, its tier, its flags (the same ID number or image as another customer, a changed name) and
 * how often it was sent before; advanced submissions holding a first approval say so. A row opens
 * the review.
 */
export default function VerificationQueueScreen() {
  const { t } = useTranslation(['adminKyc', 'verification']);
  const lang = useLang();
  const [tier, setTier] = useState<TierFilter>('all');
  const [page, setPage] = useState(1);
  const queue = useQuery({
    queryKey: ['verification/queue', tier, page],
    queryFn: () =>
      api.get<AdminVerificationQueueData>('verification/queue', {
        tier: tier === 'all' ? undefined : tier,
        page,
        page_size: PAGE,
      }),
    refetchInterval: REFRESH_MS,
  });
  const list = queue.data?.list ?? [];
  const total = queue.data?.total ?? 0;
  const columns: Column<AdminVerificationQueueRow>[] = [
    {
      key: 'customer',
      label: t('queue.customer'),
      render: (row) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {row.customer_name || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {t('detail.uid', { uid: row.uid })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'tier',
      label: t('queue.tier'),
      render: (row) => (
        <Stack gap={4} align="flex-start">
          <Text size="sm">{t(`verification:tier.${row.tier}`)}</Text>
          {row.awaiting_second ? (
            <Badge color="violet" variant="light" size="sm" data-testid="awaiting-second">
              {t('queue.awaitingSecond')}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'submitted',
      label: t('queue.submitted'),
      render: (row) => <Figure>{formatTime(row.submitted_at, lang)}</Figure>,
    },
    { key: 'age', label: t('queue.age'), render: (row) => <AgeText ageMs={row.age_ms} /> },
    { key: 'flags', label: t('queue.flags'), render: (row) => <FlagBadges flags={row.flags} /> },
    {
      key: 'resubmissions',
      label: t('queue.resubmissions'),
      align: 'right',
      render: (row) => <Figure>{row.resubmissions}</Figure>,
    },
    {
      key: 'open',
      label: '',
      render: (row) => (
        <Button
          size="xs"
          component={Link}
          to={`/verification/detail?id=${encodeURIComponent(row.id)}`}
          data-testid="verification-open"
        >
          {t('queue.open')}
        </Button>
      ),
    },
  ];
  return (
    <Stack data-testid="verification-queue">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>{t('queue.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('queue.intro')}
          </Text>
        </Stack>
        {queue.isSuccess ? (
          <Text size="sm" c="dimmed" data-testid="verification-total">
            {t('queue.total', { count: total })}
          </Text>
        ) : null}
      </Group>
      <SegmentedControl
        w="fit-content"
        value={tier}
        onChange={(value) => {
          setTier((['all', ...VERIFICATION_TIERS] as const).find((v) => v === value) ?? 'all');
          setPage(1);
        }}
        data={[
          { value: 'all', label: t('queue.allTiers') },
          ...VERIFICATION_TIERS.map((v) => ({ value: v, label: t(`verification:tier.${v}`) })),
        ]}
        data-testid="verification-tier-filter"
      />
      <ErrorNote error={queue.error} />
      {queue.isSuccess && list.length === 0 ? (
        <Text c="dimmed" data-testid="verification-empty">
          {t('queue.empty')}
        </Text>
      ) : null}
      {list.length > 0 ? (
        <DataTable
          rows={list}
          rowKey={(row) => row.id}
          testId="verification-table"
          rowTestId="verification-row"
          rowAttrs={(row) => ({ 'data-id': row.id, 'data-uid': row.uid })}
          columns={columns}
        />
      ) : null}
      {total > PAGE ? <Pagination value={page} onChange={setPage} total={Math.ceil(total / PAGE)} /> : null}
    </Stack>
  );
}
