import {
  LAUNCHPAD_SUBSCRIPTION_STATES,
  type LaunchpadSubscriptionData,
  type LaunchpadSubscriptionState,
} from '@bourse/protocol';
import {
  Anchor,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useSubscriptionRecords } from '../api.ts';
import { hasProof, LAUNCHPAD_ROUTES, pageCount, recordReason } from '../logic.ts';
import { Amount, Fact, LoginPrompt, SubscriptionStateBadge, useLaunchpadWords, WIDE } from './parts.tsx';

const PAGE_SIZE = 10;
type Filter = 'all' | LaunchpadSubscriptionState;

/** The review's rule or the project's failure, in words. */
function ReasonText({ record }: { record: LaunchpadSubscriptionData }) {
  const { t } = useTranslation('launchpad');
  const reason = recordReason(record);
  if (reason === null) return null;
  const text =
    reason.kind === 'review'
      ? t(`reviewReason.${reason.code as 'tier'}`)
      : t(`recordFailure.${reason.code as 'soft_cap_missed'}`);
  return (
    <Text
      size="xs"
      c="red"
      data-testid="record-reason"
      data-reason={reason.code}
      style={{ whiteSpace: 'normal' }}
    >
      {text}
    </Text>
  );
}

/** Where the allocated coins are: locked until the release date, or released. */
function TokenText({ record }: { record: LaunchpadSubscriptionData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const text =
    record.token_state === 'locked'
      ? t('token.locked', { date: words.time(record.release_at) })
      : record.token_state === 'released'
        ? t('token.released', { date: words.time(record.released_at ?? record.release_at) })
        : t('token.none');
  return (
    <Text size="sm" data-testid="record-token" data-token={record.token_state}>
      {text}
    </Text>
  );
}

function RecordActions({ record, size }: { record: LaunchpadSubscriptionData; size: 'xs' | 'sm' }) {
  const { t } = useTranslation('launchpad');
  return (
    <Group gap={6} wrap="nowrap" grow={size === 'sm'}>
      {hasProof(record) ? (
        <Button
          component={Link}
          to={LAUNCHPAD_ROUTES.proof(record.project_id)}
          size={size}
          variant="light"
          data-testid="record-verify"
        >
          {t('records.verify')}
        </Button>
      ) : null}
      <Button
        component={Link}
        to={LAUNCHPAD_ROUTES.project(record.project_id)}
        size={size}
        variant="default"
        data-testid="record-project"
      >
        {t('records.project')}
      </Button>
    </Group>
  );
}

/** One subscription as a card (phones). */
function RecordCard({ record }: { record: LaunchpadSubscriptionData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const coin = record.coin;
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      data-testid="launchpad-record"
      data-record={record.subscription_id}
      data-state={record.state}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0}>
            <Text fw={700}>{record.project_name}</Text>
            <Text size="xs" c="dimmed">
              {t('records.seqValue', { seq: record.seq })} · {words.time(record.created_at)}
            </Text>
          </Stack>
          <SubscriptionStateBadge state={record.state} />
        </Group>
        <ReasonText record={record} />
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('records.quantity')}>
            <Amount value={record.quantity} currency={coin} padTo={0} testId="record-quantity" />
          </Fact>
          <Fact label={t('records.frozen')}>
            <Amount value={record.frozen} currency="USDT" testId="record-frozen" />
          </Fact>
          <Fact label={t('records.allocated')}>
            <Amount value={record.allocated} currency={coin} padTo={0} testId="record-allocated" />
          </Fact>
          <Fact label={t('records.paid')}>
            <Amount value={record.paid} currency="USDT" testId="record-paid" />
          </Fact>
          <Fact label={t('records.fee')}>
            {/* Only a fee actually paid at allocation: a refunded or not-passed record paid none. */}
            <Amount value={record.fee_paid} currency="USDT" testId="record-fee" />
          </Fact>
          <Fact label={t('records.refunded')}>
            <Amount value={record.refunded} currency="USDT" testId="record-refunded" />
          </Fact>
        </SimpleGrid>
        <Fact label={t('records.tokens')}>
          <TokenText record={record} />
        </Fact>
        <RecordActions record={record} size="sm" />
      </Stack>
    </Paper>
  );
}

/** An amount and, under it, the fee it includes (frozen: the fee frozen; paid: the fee paid). */
function WithFee({
  value,
  fee,
  testId,
  feeTestId,
}: {
  value: string | null;
  fee: string | null;
  testId: string;
  feeTestId: string;
}) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Stack gap={0} align="flex-end">
      <Amount value={value} currency="USDT" testId={testId} />
      {fee !== null ? (
        <Text size="xs" c="dimmed" data-testid={feeTestId} data-value={fee}>
          {t('records.feeIncluded', { fee: words.usdt(fee) })}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * One subscription as a table row (desktop): the time and the frozen fee sit under their figures, so
 * it fits 1280 px. What was paid is the cost alone (paid + fee paid + returned = frozen): the fee paid
 * has its own column.
 */
function RecordRow({ record }: { record: LaunchpadSubscriptionData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const coin = record.coin;
  return (
    <Table.Tr data-testid="launchpad-record" data-record={record.subscription_id} data-state={record.state}>
      <Table.Td>
        <Stack gap={2}>
          <Text size="sm" fw={700}>
            {record.project_name}
          </Text>
          <Text size="xs" c="dimmed">
            {t('records.seqValue', { seq: record.seq })} · {words.time(record.created_at)}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td ta="right">
        <Amount value={record.quantity} currency={coin} padTo={0} testId="record-quantity" />
      </Table.Td>
      <Table.Td ta="right">
        <WithFee
          value={record.frozen}
          fee={record.fee_frozen}
          testId="record-frozen"
          feeTestId="record-fee-frozen"
        />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'normal', maxWidth: 240 }}>
        <Stack gap={4}>
          <SubscriptionStateBadge state={record.state} />
          <ReasonText record={record} />
        </Stack>
      </Table.Td>
      <Table.Td ta="right">
        <Amount value={record.allocated} currency={coin} padTo={0} testId="record-allocated" />
      </Table.Td>
      <Table.Td ta="right">
        <Amount value={record.paid} currency="USDT" testId="record-paid" />
      </Table.Td>
      <Table.Td ta="right">
        <Amount value={record.fee_paid} currency="USDT" testId="record-fee" />
      </Table.Td>
      <Table.Td ta="right">
        <Amount value={record.refunded} currency="USDT" testId="record-refunded" />
      </Table.Td>
      <Table.Td>
        <TokenText record={record} />
      </Table.Td>
      <Table.Td>
        <RecordActions record={record} size="xs" />
      </Table.Td>
    </Table.Tr>
  );
}

function RecordTable({ items }: { items: LaunchpadSubscriptionData[] }) {
  const { t } = useTranslation('launchpad');
  return (
    <Table.ScrollContainer minWidth={1080}>
      <Table
        verticalSpacing="sm"
        fz="sm"
        highlightOnHover
        style={{ whiteSpace: 'nowrap' }}
        data-testid="launchpad-records-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('records.project')}</Table.Th>
            <Table.Th ta="right">{t('records.quantity')}</Table.Th>
            <Table.Th ta="right">{t('records.frozen')}</Table.Th>
            <Table.Th>{t('records.status')}</Table.Th>
            <Table.Th ta="right">{t('records.allocated')}</Table.Th>
            <Table.Th ta="right">{t('records.paid')}</Table.Th>
            <Table.Th ta="right">{t('records.fee')}</Table.Th>
            <Table.Th ta="right">{t('records.refunded')}</Table.Th>
            <Table.Th>{t('records.tokens')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((record) => (
            <RecordRow key={record.subscription_id} record={record} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The state filter: segments on desktop, a select on phones (seven segments do not fit 390 px). */
function StateFilter({
  value,
  onChange,
  wide,
}: {
  value: Filter;
  onChange: (f: Filter) => void;
  wide: boolean;
}) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const data = [
    { value: 'all', label: t('records.all') },
    ...LAUNCHPAD_SUBSCRIPTION_STATES.map((s) => ({ value: s, label: words.subState(s) })),
  ];
  return wide ? (
    <SegmentedControl
      value={value}
      onChange={(v) => onChange(v as Filter)}
      data={data}
      data-testid="launchpad-records-filter"
    />
  ) : (
    <Select
      value={value}
      onChange={(v) => v && onChange(v as Filter)}
      data={data}
      allowDeselect={false}
      aria-label={t('records.status')}
      data-testid="launchpad-records-filter"
    />
  );
}

/** /subscriptionRecord (optionally `?project_id=`): my subscriptions with every state, reason and figure. */
export function RecordsPage() {
  const { t } = useTranslation('launchpad');
  const token = useToken();
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const [params, setParams] = useSearchParams();
  const projectId = params.get('project_id') || undefined;
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const records = useSubscriptionRecords({
    ...(projectId ? { project_id: projectId } : {}),
    ...(filter !== 'all' ? { state: filter } : {}),
    page,
    page_size: PAGE_SIZE,
  });
  const items = records.data?.items ?? [];
  const total = records.data?.total ?? 0;
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="launchpad-records-page">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('records.title')}
        </Title>
        <Anchor component={Link} to={LAUNCHPAD_ROUTES.list} size="sm" data-testid="launchpad-records-back">
          {t('records.back')}
        </Anchor>
      </Group>
      {token === null ? (
        <LoginPrompt text={t('records.login')} />
      ) : (
        <Paper withBorder={wide} radius="lg" p={wide ? 'md' : 0}>
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <StateFilter
                value={filter}
                wide={wide}
                onChange={(f) => {
                  setFilter(f);
                  setPage(1);
                }}
              />
              {projectId ? (
                <Group gap="xs" data-testid="launchpad-records-project">
                  <Text size="sm" c="dimmed">
                    {t('records.oneProject')}
                  </Text>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => {
                      setParams({});
                      setPage(1);
                    }}
                    data-testid="launchpad-records-all-projects"
                  >
                    {t('records.allProjects')}
                  </Button>
                </Group>
              ) : null}
            </Group>
            {records.isPending ? (
              <Loader size="sm" />
            ) : items.length === 0 ? (
              <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="launchpad-records-empty">
                {t('records.empty')}
              </Text>
            ) : wide ? (
              <RecordTable items={items} />
            ) : (
              <Stack gap="sm" data-testid="launchpad-records-cards">
                {items.map((record) => (
                  <RecordCard key={record.subscription_id} record={record} />
                ))}
              </Stack>
            )}
            <Group justify="space-between" wrap="wrap">
              <Text size="sm" c="dimmed" data-testid="launchpad-records-total" data-total={total}>
                {t('records.total', { count: total })}
              </Text>
              <Pagination total={pageCount(total, PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
