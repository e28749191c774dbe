import { checkLaunchpadProof, type LaunchpadCheck } from '@bourse/proof';
import type { SubscriptionProofData } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { useSubscriptionProof } from '../api.ts';
import { LAUNCHPAD_ROUTES, lotsToCoins } from '../logic.ts';
import { type FormulaView, failedStep, formulaOf, proofDownload, stepStatuses, totalsOf } from '../proof.ts';
import { LeafFacts, PathCheck, StepCard } from './ProofPath.tsx';
import { LoginPrompt, RefusalNote, useLaunchpadWords } from './parts.tsx';

function Explainer() {
  const { t } = useTranslation('launchpad');
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Paper withBorder radius="lg" p="lg" data-testid="proof-proves">
        <Title order={2} size="h4" mb="sm">
          {t('proof.proves.title')}
        </Title>
        <List spacing="xs" size="sm">
          <List.Item>{t('proof.proves.commitment')}</List.Item>
          <List.Item>{t('proof.proves.allocation')}</List.Item>
          <List.Item>{t('proof.proves.formula')}</List.Item>
          <List.Item>{t('proof.proves.private')}</List.Item>
        </List>
      </Paper>
      <Paper withBorder radius="lg" p="lg" data-testid="proof-not-proves">
        <Title order={2} size="h4" mb="sm">
          {t('proof.notProves.title')}
        </Title>
        <List spacing="xs" size="sm">
          <List.Item>{t('proof.notProves.others')}</List.Item>
          <List.Item>{t('proof.notProves.review')}</List.Item>
          <List.Item>{t('proof.notProves.value')}</List.Item>
        </List>
      </Paper>
    </SimpleGrid>
  );
}

/** The formula line with every intermediate figure (lots), ending in what the allocation leaf holds. */
function FormulaLines({ view, leafLots }: { view: FormulaView; leafLots: bigint }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const n = (value: bigint) => words.whole(value.toString());
  const lines: string[] = [];
  if (view.kind === 'share') {
    lines.push(
      t('proof.formula.share', {
        c: n(view.committed),
        s: n(view.s),
        cc: n(view.c),
        base: n(view.base),
        r: n(view.remainder),
      }),
    );
    lines.push(
      view.cut
        ? t('proof.formula.cut', {
            cutR: n(view.cut.remainder),
            cutSeq: view.cut.seq,
            r: n(view.remainder),
            seq: view.seq,
            extra: view.extra === 1n ? '+1' : '+0',
          })
        : t('proof.formula.noCut', { extra: '+0' }),
    );
  } else if (view.kind === 'capped') {
    lines.push(
      t('proof.formula.capped', {
        cs: n(view.committed * view.s),
        capc: n(view.cap * view.c),
        cap: n(view.cap),
      }),
    );
  } else {
    lines.push(
      t(`proof.formula.${view.kind === 'filled' ? 'filled' : 'firstCome'}`, {
        c: n(view.committed),
        cap: n(view.cap),
        s: n(view.s),
        cc: n(view.c),
      }),
    );
  }
  lines.push(t('proof.formula.result', { result: n(view.result) }));
  const matches = view.result === leafLots;
  return (
    <Stack gap={6} data-testid="proof-formula" data-kind={view.kind}>
      <Text size="sm" c="dimmed">
        {t('proof.formula.legend')}
      </Text>
      {/* Wrapped, not scrolled: on a phone the remainder rule's line is wider than the screen. */}
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {lines.join('\n')}
      </Code>
      <Text
        size="sm"
        c={matches ? 'teal' : 'red'}
        data-testid="proof-formula-compare"
        data-match={matches ? '1' : '0'}
      >
        {t(matches ? 'proof.formula.matches' : 'proof.formula.differs', {
          leaf: n(leafLots),
          result: n(view.result),
        })}
      </Text>
    </Stack>
  );
}

function TotalsLines({ data }: { data: SubscriptionProofData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const totals = totalsOf(data.published);
  if (!totals) return null;
  const p = data.published;
  const sum = words.whole(p.allocation_root.sum);
  const lines = [
    {
      key: 'withinSupply',
      ok: totals.withinSupply,
      text: t('proof.totals.withinSupply', { sum, supply: words.whole(p.supply_lots) }),
    },
    {
      key: 'allocated',
      ok: totals.allocatedMatches,
      text: t('proof.totals.allocated', { sum, allocated: words.whole(p.allocated_lots) }),
    },
    {
      key: 'committed',
      ok: totals.committedMatches,
      text: t('proof.totals.committed', {
        sum: words.whole(p.commitment_root.sum),
        committed: words.whole(p.committed_lots),
      }),
    },
  ];
  return (
    <Stack gap={4}>
      {lines.map((line) => (
        <Text
          key={line.key}
          size="sm"
          c={line.ok ? undefined : 'red'}
          data-testid={`proof-total-${line.key}`}
          data-ok={line.ok ? '1' : '0'}
        >
          {line.ok ? '✓ ' : '✗ '}
          {line.text}
        </Text>
      ))}
    </Stack>
  );
}

/** The summary first: it checks out, or the step it failed at. */
function Verdict({ data, check }: { data: SubscriptionProofData; check: LaunchpadCheck }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  if (check.ok) {
    const coins = lotsToCoins(check.allocatedLots, data.lot_size, 18);
    return (
      <Alert color="teal" variant="light" data-testid="proof-result-ok">
        {t('proof.resultOk', {
          committed: words.whole(check.committedLots.toString()),
          allocated: words.whole(check.allocatedLots.toString()),
          coins: words.coins(coins, data.lot_size),
          coin: data.coin,
        })}
      </Alert>
    );
  }
  const step = failedStep(check) ?? 'leaves';
  return (
    <Alert
      color="red"
      variant="light"
      data-testid="proof-result-failed"
      data-failure={check.failure ?? ''}
      data-step={step}
    >
      {t('proof.resultFailed', {
        step: t(`proof.step.${step}`),
        reason: t(`proof.failure.${check.failure ?? 'malformed'}`),
      })}
    </Alert>
  );
}

/** Every step of the browser's check of one proof, and the proof itself to download. */
function ProofCheck({ data }: { data: SubscriptionProofData }) {
  const { t } = useTranslation('launchpad');
  const check = useMemo(() => checkLaunchpadProof(data), [data]);
  const status = stepStatuses(check);
  const readable = check.failure !== 'malformed';
  const formula = readable ? formulaOf(data.published, check.committedLots, data.seq) : null;
  const download = proofDownload(data);
  return (
    <Stack gap="md" data-testid="proof-check" data-ok={check.ok ? '1' : '0'}>
      <Verdict data={data} check={check} />
      <StepCard step="leaves" index={1} title={t('proof.step.leaves')} status={status.leaves}>
        <Text size="sm" c="dimmed">
          {t('proof.leavesIntro')}
        </Text>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {t('proof.leafId')}
          </Text>
          <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="proof-leaf-id">
            {data.commitment.id}
          </Text>
        </Stack>
        <LeafFacts leaf={data.commitment} label={t('proof.commitmentLeaf')} />
        <LeafFacts leaf={data.allocation} label={t('proof.allocationLeaf')} />
      </StepCard>
      <StepCard step="commitment" index={2} title={t('proof.step.commitment')} status={status.commitment}>
        {check.commitment ? (
          <PathCheck
            check={check.commitment}
            root={data.published.commitment_root}
            testId="proof-commitment-path"
          />
        ) : null}
      </StepCard>
      <StepCard step="allocation" index={3} title={t('proof.step.allocation')} status={status.allocation}>
        {check.allocation ? (
          <PathCheck
            check={check.allocation}
            root={data.published.allocation_root}
            testId="proof-allocation-path"
          />
        ) : null}
      </StepCard>
      <StepCard step="totals" index={4} title={t('proof.step.totals')} status={status.totals}>
        <TotalsLines data={data} />
      </StepCard>
      <StepCard step="formula" index={5} title={t('proof.step.formula')} status={status.formula}>
        {formula ? <FormulaLines view={formula} leafLots={check.allocatedLots} /> : null}
      </StepCard>
      <Group>
        <Button
          component="a"
          href={`data:application/json;charset=utf-8,${encodeURIComponent(download.text)}`}
          download={download.name}
          variant="light"
          data-testid="proof-download"
        >
          {t('proof.download')}
        </Button>
      </Group>
    </Stack>
  );
}

function ProofBody({ projectId }: { projectId: string }) {
  const { t } = useTranslation('launchpad');
  const proof = useSubscriptionProof(projectId);
  if (proof.isPending) {
    return (
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm">{t('proof.loading')}</Text>
      </Group>
    );
  }
  if (proof.error) {
    const refused = proof.error instanceof ApiError && proof.error.kind === 'refused' ? proof.error : null;
    return refused ? (
      <RefusalNote
        code={refused.reason ?? 'REFUSED'}
        params={refused.params}
        message={refused.message}
        testId="proof-refusal"
      />
    ) : (
      <Alert color="red" variant="light" data-testid="proof-failed-load">
        {t('proof.loadFailed')}
      </Alert>
    );
  }
  return <ProofCheck data={proof.data} />;
}

/** /subscriptionProof?project_id=…: my commitment and allocation checked in the browser, step by step. */
export function ProofPage() {
  const { t } = useTranslation('launchpad');
  const token = useToken();
  const [params] = useSearchParams();
  const projectId = params.get('project_id');
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 'xl' }} data-testid="launchpad-proof-page">
      <Group gap="md">
        <Anchor component={Link} to={LAUNCHPAD_ROUTES.records} size="sm" data-testid="proof-back-records">
          {t('proof.backRecords')}
        </Anchor>
        {projectId ? (
          <Anchor
            component={Link}
            to={LAUNCHPAD_ROUTES.project(projectId)}
            size="sm"
            data-testid="proof-back-project"
          >
            {t('proof.backProject')}
          </Anchor>
        ) : null}
      </Group>
      <Stack gap="xs">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('proof.title')}
        </Title>
        <Text c="dimmed" maw={900}>
          {t('proof.intro')}
        </Text>
      </Stack>
      <Explainer />
      {!projectId ? (
        <Alert color="orange" variant="light" data-testid="proof-no-project">
          {t('detail.notFound')}
        </Alert>
      ) : token === null ? (
        <LoginPrompt text={t('proof.login')} />
      ) : (
        <ProofBody projectId={projectId} />
      )}
    </Stack>
  );
}
