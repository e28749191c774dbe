import {
  type AdminLaunchpadSubscriptionData,
  LAUNCHPAD_SUBSCRIPTION_STATES,
  type LaunchpadSubscriptionState,
} from '@bourse/protocol';
import { Card, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure, useAmountText } from '../../app/ui.tsx';
import { type SubscriptionFilter, useLaunchpadProjects, useLaunchpadSubscriptions } from './api.ts';
import { Coins, NoControl, SubscriptionStateBadge, TokenStateBadge } from './parts.tsx';

const PAGE_SIZE = 50;

/** Why a subscription did not go through: the review's rule, or the project's failure. */
function ReasonCell({ s }: { s: AdminLaunchpadSubscriptionData }) {
  const { t } = useTranslation('adminLaunchpad');
  if (s.review_reason) return <>{t(`review.${s.review_reason}`)}</>;
  if (s.failure_reason) return <>{t(`failure.${s.failure_reason}`)}</>;
  return <>—</>;
}

/** Reviewed, allocated, refunded and released, each when it happened. */
function TimesCell({ s }: { s: AdminLaunchpadSubscriptionData }) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const lines = [
    s.reviewed_at !== null ? t('subscriptions.reviewedAt', { time: formatTime(s.reviewed_at, lang) }) : null,
    s.allocated_at !== null
      ? t('subscriptions.allocatedAt', { time: formatTime(s.allocated_at, lang) })
      : null,
    s.refunded_at !== null ? t('subscriptions.refundedAt', { time: formatTime(s.refunded_at, lang) }) : null,
  ].filter((line): line is string => line !== null);
  if (lines.length === 0) return <>—</>;
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text key={line} size="xs" style={{ whiteSpace: 'nowrap' }}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

function SubscriptionRow({ s }: { s: AdminLaunchpadSubscriptionData }) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const amountText = useAmountText();
  return (
    <Table.Tr data-testid="launchpad-subscription" data-subscription={s.subscription_id} data-state={s.state}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(s.created_at, lang)}</Table.Td>
      <Table.Td>
        <Text size="sm">{s.uid}</Text>
        <Text size="xs" c="dimmed">
          {s.customer_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {s.coin} · {s.project_name}
        </Text>
        <Text size="xs" c="dimmed">
          {t('subscriptions.seq', { seq: s.seq })} · {s.subscription_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Coins value={s.quantity} coin={s.coin} />
      </Table.Td>
      <Table.Td>
        <Amount value={s.frozen} currency="USDT" />
        <Text size="xs" c="dimmed">
          {t('subscriptions.frozenDetail', { margin: amountText(s.margin), fee: amountText(s.fee_frozen) })}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <SubscriptionStateBadge state={s.state} />
      </Table.Td>
      <Table.Td>
        <ReasonCell s={s} />
      </Table.Td>
      <Table.Td>
        <Coins value={s.allocated} coin={s.coin} />
      </Table.Td>
      <Table.Td>
        <Amount value={s.paid} currency="USDT" />
      </Table.Td>
      <Table.Td>
        <Amount value={s.fee_paid} currency="USDT" />
      </Table.Td>
      <Table.Td>
        <Amount value={s.refunded} currency="USDT" />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <TokenStateBadge state={s.token_state} />
        <Text size="xs" c="dimmed">
          {s.released_at !== null
            ? t('subscriptions.releasedAt', { time: formatTime(s.released_at, lang) })
            : t('subscriptions.releaseAt', { time: formatTime(s.release_at, lang) })}
        </Text>
      </Table.Td>
      <Table.Td>
        <TimesCell s={s} />
      </Table.Td>
    </Table.Tr>
  );
}

const HEADS = [
  'created',
  'customer',
  'project',
  'quantity',
  'frozen',
  'state',
  'reason',
  'allocated',
  'paid',
  'fee',
  'refunded',
  'token',
  'times',
] as const;

/** The filters: project, state, customer UID (each change goes back to page one). */
function useSubscriptionFilter() {
  const [params] = useSearchParams();
  const [project, setProject] = useState<string | null>(params.get('project'));
  const [state, setState] = useState<LaunchpadSubscriptionState | null>(null);
  const [uid, setUid] = useState('');
  const [page, setPage] = useState(1);
  const filter: SubscriptionFilter = {
    ...(project ? { project_id: project } : {}),
    ...(state ? { state } : {}),
    ...(uid.trim() ? { uid: uid.trim() } : {}),
    page,
    page_size: PAGE_SIZE,
  };
  const reset =
    <T,>(setter: (v: T) => void) =>
    (v: T) => {
      setter(v);
      setPage(1);
    };
  return {
    filter,
    values: { project, state, uid, page },
    set: { project: reset(setProject), state: reset(setState), uid: reset(setUid), page: setPage },
  };
}

/** Every subscription across customers: project, state and customer filters, in pages. Read only. */
export default function SubscriptionsScreen() {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const projects = useLaunchpadProjects();
  const { filter, values, set } = useSubscriptionFilter();
  const subscriptions = useLaunchpadSubscriptions(filter);
  const items = subscriptions.data?.items ?? [];
  const total = subscriptions.data?.total ?? 0;
  return (
    <Stack>
      <Title order={2}>{t('subscriptions.title')}</Title>
      <NoControl />
      <Group align="flex-end">
        <Select
          label={t('subscriptions.project')}
          placeholder={t('common.all')}
          clearable
          searchable
          data={(projects.data?.items ?? []).map((p) => ({
            value: p.project_id,
            label: `${p.coin} · ${p.names[lang]}`,
          }))}
          value={values.project}
          onChange={set.project}
          data-testid="launchpad-subscriptions-project"
        />
        <Select
          label={t('subscriptions.state')}
          placeholder={t('common.all')}
          clearable
          data={LAUNCHPAD_SUBSCRIPTION_STATES.map((s) => ({ value: s, label: t(`subscriptionState.${s}`) }))}
          value={values.state}
          onChange={(v) => set.state(v as LaunchpadSubscriptionState | null)}
          data-testid="launchpad-subscriptions-state"
        />
        <TextInput
          label={t('subscriptions.uid')}
          value={values.uid}
          onChange={(e) => set.uid(e.currentTarget.value)}
          data-testid="launchpad-subscriptions-uid"
        />
      </Group>
      <ErrorNote error={subscriptions.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1500}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="launchpad-subscriptions">
              <Table.Thead>
                <Table.Tr>
                  {HEADS.map((h) => (
                    <Table.Th key={h}>{t(`subscriptions.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((s) => (
                  <SubscriptionRow key={s.subscription_id} s={s} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed" data-testid="launchpad-subscriptions-total" data-total={total}>
            <Figure>{t('subscriptions.total', { count: total })}</Figure>
          </Text>
          <Pagination
            total={Math.max(1, Math.ceil(total / PAGE_SIZE))}
            value={values.page}
            onChange={set.page}
            size="sm"
          />
        </Group>
      </Card>
    </Stack>
  );
}
