import {
  type AdminLaunchpadProjectData,
  LANGS,
  LAUNCHPAD_SUBSCRIPTION_STATES,
  type LaunchpadAllocationData,
} from '@bourse/protocol';
import { CopyField } from '@bourse/ui';
import { Alert, Anchor, Divider, Drawer, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, Figure } from '../../app/ui.tsx';
import { MarketSection } from './MarketSection.tsx';
import { type Acting, ActionButtons } from './ProjectActionDialog.tsx';
import { Coins, Facts, Lots, ProjectStateBadge, SubscriptionStateBadge, useRateText } from './parts.tsx';

type P = { project: AdminLaunchpadProjectData };

/** Every rule of the project, as fixed at announcement. */
function RulesSection({ project: p }: P) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const rate = useRateText();
  const e = p.eligibility;
  return (
    <Facts
      testId="launchpad-detail-rules"
      rows={[
        [t('detail.projectId'), <Figure key="id">{p.project_id}</Figure>],
        [t('detail.issuer'), p.issuer],
        [
          t('detail.whitepaper'),
          <Anchor key="wp" href={p.whitepaper_url} target="_blank" rel="noopener noreferrer" size="sm">
            {p.whitepaper_url}
          </Anchor>,
        ],
        [t('projects.mode'), t(`mode.${p.mode}`)],
        [t('detail.price'), <Amount key="pr" value={p.price} currency={p.pay_currency} suffix />],
        [t('detail.coinScale'), p.coin_scale],
        [t('detail.lotSize'), <Coins key="lot" value={p.lot_size} coin={p.coin} />],
        [t('detail.circulation'), <Coins key="ci" value={p.circulation} coin={p.coin} />],
        [t('detail.supply'), <Coins key="su" value={p.supply} coin={p.coin} />],
        [t('detail.softCap'), <Coins key="sc" value={p.soft_cap} coin={p.coin} />],
        [t('detail.perCustomerCap'), <Coins key="cap" value={p.per_customer_cap} coin={p.coin} />],
        [t('detail.minSubscription'), <Coins key="min" value={p.min_subscription} coin={p.coin} />],
        [t('detail.marginRatio'), rate(p.margin_ratio)],
        [t('detail.feeRate'), rate(p.fee_rate)],
        [t('detail.opens'), formatTime(p.opens_at, lang)],
        [t('detail.closes'), formatTime(p.closes_at, lang)],
        [t('detail.listing'), formatTime(p.listing_at, lang)],
        [t('detail.lockup'), t('detail.days', { count: p.lockup_days })],
        [t('detail.release'), formatTime(p.release_at, lang)],
        [t('detail.refundHours'), t('detail.hours', { count: p.refund_hours })],
        [t('detail.minTier'), t(`tier.${e.min_tier ?? 'none'}`)],
        [t('detail.minRating'), t(`rating.${e.min_rating}`)],
        [t('detail.jurisdictions'), e.jurisdictions.map((j) => t(`jurisdiction.${j}`)).join(', ')],
        [t('detail.createdAt'), `${formatTime(p.created_at, lang)} · ${p.created_by}`],
        [t('detail.announcedAt'), formatTime(p.announced_at, lang)],
      ]}
    />
  );
}

/** Subscribed so far, per state, and the money the project holds. */
function StandingSection({ project: p }: P) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const rate = useRateText();
  return (
    <Stack gap="xs">
      <Facts
        testId="launchpad-detail-standing"
        rows={[
          [t('detail.subscribed'), <Coins key="s" value={p.subscribed} coin={p.coin} />],
          [t('detail.subscribers'), p.subscribers],
          [t('detail.passed'), <Coins key="pa" value={p.passed} coin={p.coin} />],
          // First come only: in pro rata nothing is taken at once (the server sends the supply).
          ...(p.mode === 'first_come'
            ? ([[t('detail.remaining'), <Coins key="re" value={p.remaining} coin={p.coin} />]] as [
                string,
                ReactNode,
              ][])
            : []),
          [t('detail.progress'), `${rate(p.progress)}${p.sold_out ? ` · ${t('detail.soldOut')}` : ''}`],
          [t('detail.escrow'), <Amount key="e" value={p.escrow} currency="USDT" suffix />],
          [t('detail.paidOut'), <Amount key="po" value={p.paid_out} currency="USDT" suffix />],
          [t('detail.fees'), <Amount key="f" value={p.fees} currency="USDT" suffix />],
        ]}
      />
      {p.failure_reason ? (
        <Alert color="red" variant="light" data-testid="launchpad-detail-failure">
          {t('detail.failed', {
            reason: t(`failure.${p.failure_reason}`),
            at: formatTime(p.failed_at, lang),
            deadline: formatTime(p.refund_deadline_at, lang),
          })}
        </Alert>
      ) : null}
      <Text size="sm" fw={600}>
        {t('detail.counts')}
      </Text>
      <Group gap="xs" data-testid="launchpad-detail-counts">
        {LAUNCHPAD_SUBSCRIPTION_STATES.map((s) => (
          <Group key={s} gap={4} wrap="nowrap" data-state={s} data-count={p.counts[s]}>
            <SubscriptionStateBadge state={s} />
            <Figure>{p.counts[s]}</Figure>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

function RootField({ label, root }: { label: string; root: LaunchpadAllocationData['commitment_root'] }) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Stack gap={2}>
      <CopyField
        label={label}
        value={root.hash}
        copyLabel={t('common.copy')}
        copiedLabel={t('common.copied')}
        mono
      />
      <Text size="xs" c="dimmed">
        {t('allocation.rootFigures', { sum: root.sum, leaves: root.leaf_count })}
      </Text>
    </Stack>
  );
}

/** The published allocation: enough for a customer to recompute their line, and its two roots. */
function AllocationSection({ allocation: a }: { allocation: LaunchpadAllocationData | null }) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  if (!a)
    return (
      <Text size="sm" c="dimmed" data-testid="launchpad-detail-allocation-none">
        {t('allocation.none')}
      </Text>
    );
  const cut = a.remainder_cut;
  return (
    <Stack gap="xs" data-testid="launchpad-detail-allocation">
      <Facts
        rows={[
          [t('allocation.mode'), t(`mode.${a.mode}`)],
          [t('allocation.supplyLots'), <Lots key="s" value={a.supply_lots} />],
          [t('allocation.capLots'), <Lots key="c" value={a.cap_lots} />],
          [t('allocation.commitments'), <Figure key="cn">{a.commitments}</Figure>],
          [t('allocation.committedLots'), <Lots key="cl" value={a.committed_lots} />],
          [t('allocation.capped'), <Figure key="kn">{a.capped}</Figure>],
          [t('allocation.cappedLots'), <Lots key="kl" value={a.capped_committed_lots} />],
          [t('allocation.fill'), <Figure key="f">{`${a.fill_numerator} / ${a.fill_denominator}`}</Figure>],
          [t('allocation.remainderLots'), <Lots key="r" value={a.remainder_lots} />],
          [
            t('allocation.remainderCut'),
            cut ? t('allocation.cut', { remainder: cut.remainder, seq: cut.seq }) : t('allocation.noCut'),
          ],
          [t('allocation.allocatedLots'), <Lots key="a" value={a.allocated_lots} />],
          [t('allocation.publishedAt'), formatTime(a.published_at, lang)],
        ]}
      />
      <Text size="xs" c="dimmed">
        {t('allocation.formula')}
      </Text>
      <RootField label={t('allocation.commitmentRoot')} root={a.commitment_root} />
      <RootField label={t('allocation.allocationRoot')} root={a.allocation_root} />
    </Stack>
  );
}

/** Names, descriptions and risk warnings as customers read them, per language. */
function TextsSection({ project: p }: P) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      {LANGS.map((lang) => (
        <Stack key={lang} gap={4} lang={lang === 'en' ? 'en' : 'zh'}>
          <Text size="xs" c="dimmed">
            {t(`lang.${lang}`)}
          </Text>
          <Text size="sm" fw={600}>
            {p.names[lang]}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {p.descriptions[lang]}
          </Text>
          <Text size="sm" c="red.8" style={{ whiteSpace: 'pre-wrap' }}>
            {p.risk_warnings[lang]}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/** Every field of one project, its counts, escrow, failure and published allocation; its actions. */
export function ProjectDrawer({
  project,
  canWrite,
  onClose,
  onAction,
}: {
  project: AdminLaunchpadProjectData | null;
  canWrite: boolean;
  onClose: () => void;
  onAction: (acting: Acting) => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const id = project ? encodeURIComponent(project.project_id) : '';
  return (
    <Drawer
      opened={project !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={project ? `${project.coin} · ${project.names[lang]}` : ''}
      data-testid="launchpad-project-drawer"
    >
      {project ? (
        <Stack data-testid="launchpad-project-detail" data-project={project.project_id}>
          <Group justify="space-between">
            <ProjectStateBadge state={project.state} />
            <ActionButtons
              project={project}
              canWrite={canWrite}
              onAction={(action) => onAction({ project, action })}
            />
          </Group>
          <Group gap="md">
            <Anchor component={Link} to={`/launchpad/subscriptions?project=${id}`} size="sm">
              {t('detail.showSubscriptions')}
            </Anchor>
            <Anchor component={Link} to={`/launchpad/runs?project=${id}`} size="sm">
              {t('detail.showRuns')}
            </Anchor>
          </Group>
          <Title order={5}>{t('detail.standing')}</Title>
          <StandingSection project={project} />
          <Divider />
          <Title order={5}>{t('market.title')}</Title>
          <MarketSection project={project} canWrite={canWrite} />
          <Divider />
          <Title order={5}>{t('detail.allocation')}</Title>
          <AllocationSection allocation={project.allocation} />
          <Divider />
          <Title order={5}>{t('detail.rules')}</Title>
          <RulesSection project={project} />
          <Divider />
          <Title order={5}>{t('detail.texts')}</Title>
          <TextsSection project={project} />
        </Stack>
      ) : null}
    </Drawer>
  );
}
