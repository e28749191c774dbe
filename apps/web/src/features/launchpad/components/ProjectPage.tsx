import { compareDecimal } from '@bourse/money';
import type { LaunchpadProjectData, SubscriptionInfoData } from '@bourse/protocol';
import { Alert, Anchor, Grid, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useSubscriptionInfo } from '../api.ts';
import { LAUNCHPAD_ROUTES } from '../logic.ts';
import { AllocationCard } from './AllocationCard.tsx';
import {
  Amount,
  Coins,
  CountdownText,
  Fact,
  LoginPrompt,
  ProgressFigure,
  ProjectBadges,
  RefusalNote,
  useLaunchpadWords,
  WIDE,
} from './parts.tsx';
import { RuleList } from './RuleList.tsx';
import { SubscribePanel } from './SubscribePanel.tsx';

/** Name, issuer, badges and the key figures. */
function ProjectHeader({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      data-testid="launchpad-header"
      data-project={project.project_id}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" align="flex-start">
          <Stack gap={2}>
            <Title order={1} fz={{ base: 20, sm: 26 }}>
              {project.name}
            </Title>
            <Text size="sm" c="dimmed" data-testid="launchpad-issuer">
              <span translate="no">{project.coin}</span> · {t('project.issuedBy', { issuer: project.issuer })}
            </Text>
          </Stack>
          <ProjectBadges project={project} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
          <Fact label={t('project.price')}>
            <Amount value={project.price} currency="USDT" testId="project-price" />
          </Fact>
          <Fact label={t('project.supply')}>
            <Coins value={project.supply} project={project} testId="project-supply" />
          </Fact>
          <Fact label={t('project.mode')}>{words.mode(project.mode)}</Fact>
          <Fact label={t('project.window')}>
            <CountdownText project={project} />
          </Fact>
          <Fact label={t('project.listing')}>{words.date(project.listing_at)}</Fact>
          <Fact label={t('project.subscribers')}>
            {t('project.subscribersValue', { count: project.subscribers })}
          </Fact>
        </SimpleGrid>
        <Fact label={t('project.progress')}>
          <ProgressFigure project={project} />
        </Fact>
      </Stack>
    </Paper>
  );
}

/** The risk warning, first and in full. */
function RiskWarning({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  return (
    <Alert color="red" variant="light" title={t('detail.riskTitle')} data-testid="launchpad-risk">
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {project.risk_warning}
      </Text>
    </Alert>
  );
}

/** What the project is, in the issuer's words, and its white paper (the issuer's site, a new tab). */
function AboutCard({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="launchpad-about">
      <Stack gap="xs">
        <Title order={2} fz="lg">
          {t('detail.about')}
        </Title>
        <Text size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="launchpad-description">
          {project.description}
        </Text>
        <Anchor
          href={project.whitepaper_url}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          fw={600}
          data-testid="launchpad-whitepaper"
        >
          {t('detail.whitepaper')}
        </Anchor>
        <Text size="xs" c="dimmed">
          {t('detail.whitepaperNote')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** A project between its close and the published allocation: what happens now. */
function PendingNote({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  if (project.state !== 'closed' && project.state !== 'allocating') return null;
  return (
    <Alert color="blue" variant="light" data-testid="launchpad-pending" data-state={project.state}>
      {t('detail.pending')}
    </Alert>
  );
}

/** A failed project: why, and when every frozen amount is back. */
function FailureNote({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  if (project.state !== 'failed' && project.state !== 'refunded') return null;
  const reason = project.failure_reason;
  return (
    <Alert
      color="red"
      variant="light"
      title={t('detail.failedTitle')}
      data-testid="launchpad-failure"
      data-reason={reason ?? ''}
    >
      <Stack gap={4}>
        {reason ? (
          <Text size="sm">
            {t(`failureReason.${reason}`, {
              softCap: words.coins(project.soft_cap, project.lot_size),
              coin: project.coin,
            })}
          </Text>
        ) : null}
        {project.state === 'refunded' ? (
          <Text size="sm" data-testid="launchpad-refunded">
            {t('detail.refunded', {
              date: project.refund_deadline_at === null ? '' : words.time(project.refund_deadline_at),
              count: project.refund_hours,
            })}
          </Text>
        ) : project.refund_deadline_at !== null ? (
          <Text size="sm" fw={600} data-testid="launchpad-refund-deadline">
            {t('detail.refundBy', {
              date: words.time(project.refund_deadline_at),
              count: project.refund_hours,
            })}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** A distributed project: the coin's spot market once staff opened it (a link to trade), or when it may open. */
function MarketNote({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  if (project.state !== 'distributed') return null;
  const symbol = project.market_symbol;
  return (
    <Alert
      color={symbol ? 'teal' : 'gray'}
      variant="light"
      title={t('detail.marketTitle')}
      data-testid="launchpad-market"
      data-symbol={symbol ?? ''}
    >
      {symbol && project.market_opened_at !== null ? (
        <Stack gap={6} align="flex-start">
          <Text size="sm">
            {t('detail.marketOpen', {
              coin: project.coin,
              symbol,
              date: words.date(project.market_opened_at),
            })}
          </Text>
          <Anchor
            component={Link}
            to={`/currencyTrade?symbol=${encodeURIComponent(symbol)}`}
            fw={600}
            size="sm"
            data-testid="launchpad-market-trade"
          >
            {t('detail.marketTrade', { symbol })}
          </Anchor>
        </Stack>
      ) : (
        <Text size="sm">
          {t('detail.marketLater', { coin: project.coin, date: words.date(project.listing_at) })}
        </Text>
      )}
    </Alert>
  );
}

/** Whether the customer may subscribe, before the form: how much, or the refusing rule and its fix. */
function EligibilityCard({ info }: { info: SubscriptionInfoData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const token = useToken();
  const { project, eligibility } = info;
  const c = (value: string) => words.coins(value, project.lot_size);
  const held = eligibility !== null && compareDecimal(eligibility.held, '0') > 0 ? eligibility.held : null;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      data-testid="launchpad-eligibility"
      data-eligible={eligibility?.eligible ? '1' : '0'}
    >
      <Stack gap="xs">
        <Title order={2} fz="lg">
          {t('eligibility.title')}
        </Title>
        {token === null || eligibility === null ? (
          <LoginPrompt text={t('eligibility.login')} />
        ) : eligibility.eligible ? (
          <Text size="sm" data-testid="launchpad-eligible">
            {t('eligibility.eligible', {
              may: c(eligibility.may_subscribe),
              available: words.usdt(eligibility.available),
              coin: project.coin,
            })}
          </Text>
        ) : eligibility.refusal ? (
          <Stack gap={6}>
            <Text size="sm">{t('eligibility.refused')}</Text>
            <RefusalNote code={eligibility.refusal.code} params={eligibility.refusal.params} />
          </Stack>
        ) : null}
        {held ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" data-testid="launchpad-held">
              {t('eligibility.held', { held: c(held), coin: project.coin })}
            </Text>
            <Anchor component={Link} to={LAUNCHPAD_ROUTES.recordsOf(project.project_id)} size="sm" fw={600}>
              {t('detail.records')}
            </Anchor>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

const SUBSCRIBABLE = new Set<LaunchpadProjectData['state']>(['announced', 'open']);

function ProjectBody({ info, wide }: { info: SubscriptionInfoData; wide: boolean }) {
  const { project } = info;
  const allocation = project.allocation ? (
    <AllocationCard project={project} allocation={project.allocation} />
  ) : null;
  const form = SUBSCRIBABLE.has(project.state) ? <SubscribePanel info={info} wide={wide} /> : null;
  if (!wide) {
    return (
      <>
        <FailureNote project={project} />
        <PendingNote project={project} />
        <MarketNote project={project} />
        <EligibilityCard info={info} />
        {allocation}
        <RuleList project={project} />
        <AboutCard project={project} />
        {form}
      </>
    );
  }
  return (
    <Grid gap="md" align="flex-start">
      <Grid.Col span={7}>
        <Stack gap="md">
          {allocation}
          <RuleList project={project} />
          <AboutCard project={project} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={5}>
        <Stack gap="md">
          <FailureNote project={project} />
          <PendingNote project={project} />
          <MarketNote project={project} />
          <EligibilityCard info={info} />
          {form}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** /subscriptionBuy?project_id=…: the project, its risk warning and every rule, my eligibility, the form, the allocation. */
export function ProjectPage() {
  const { t } = useTranslation('launchpad');
  const [params] = useSearchParams();
  const projectId = params.get('project_id');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const info = useSubscriptionInfo(projectId);
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="launchpad-project-page">
      <Anchor component={Link} to={LAUNCHPAD_ROUTES.list} size="sm" data-testid="launchpad-back">
        {t('detail.back')}
      </Anchor>
      {!projectId || info.isError ? (
        <Alert color="orange" variant="light" data-testid="launchpad-not-found">
          {t('detail.notFound')}
        </Alert>
      ) : !info.data ? (
        <Loader size="sm" />
      ) : (
        <>
          <ProjectHeader project={info.data.project} />
          <RiskWarning project={info.data.project} />
          <ProjectBody info={info.data} wide={wide} />
        </>
      )}
    </Stack>
  );
}
