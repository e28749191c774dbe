import type { CreditFactorData, CreditScoreData } from '@bourse/protocol';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { useCreditScore, useRequestScoreReview } from '../api.ts';
import { LOAN_ROUTES, refusedTier, VERIFICATION_LINKS } from '../logic.ts';
import {
  ErrorNote,
  Fact,
  LoginPrompt,
  OwnFundsNote,
  RefusalNote,
  Usdt,
  useLoanWords,
  WIDE,
} from './parts.tsx';

/** A factor's value in words: a tier by name, days, USDT or a count of loans. */
function useFactorValue() {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  return (factor: CreditFactorData['unit'], value: string) => {
    if (factor === 'tier') return t(`tierRank.${value as '0'}`);
    if (factor === 'usdt') return `${words.usdt(value)} USDT`;
    if (factor === 'days') return t('common.days', { days: words.whole(value) });
    return words.whole(value);
  };
}

function NextStep({ factor }: { factor: CreditFactorData }) {
  const { t } = useTranslation('loans');
  const factorValue = useFactorValue();
  if (factor.next === null) return <Text size="sm">{t('score.top')}</Text>;
  return (
    <Text size="sm" data-testid="factor-next">
      {t('score.nextValue', {
        value: factorValue(factor.unit, factor.next.value),
        points: factor.next.points,
      })}
    </Text>
  );
}

function Hint({ factor }: { factor: CreditFactorData }) {
  const { t } = useTranslation('loans');
  if (factor.hint === null) return <Text size="sm">{t('common.none')}</Text>;
  return (
    <Text
      size="sm"
      c="blue"
      data-testid="factor-hint"
      data-hint={factor.hint}
      style={{ whiteSpace: 'normal' }}
    >
      {t(`hint.${factor.hint as 'deposit_more'}`)}
    </Text>
  );
}

function FactorTable({ data }: { data: CreditScoreData }) {
  const { t } = useTranslation('loans');
  const factorValue = useFactorValue();
  return (
    <Table verticalSpacing="sm" fz="sm" data-testid="score-factors-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('score.factor')}</Table.Th>
          <Table.Th>{t('score.value')}</Table.Th>
          <Table.Th ta="right">{t('score.points')}</Table.Th>
          <Table.Th ta="right">{t('score.best')}</Table.Th>
          <Table.Th>{t('score.next')}</Table.Th>
          <Table.Th>{t('score.howTo')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.breakdown.map((f) => (
          <Table.Tr key={f.factor} data-testid="score-factor" data-factor={f.factor}>
            <Table.Td fw={600}>{t(`factor.${f.factor}`)}</Table.Td>
            <Table.Td>{factorValue(f.unit, f.value)}</Table.Td>
            <Table.Td ta="right" data-testid="factor-points">
              {f.points}
            </Table.Td>
            <Table.Td ta="right" data-testid="factor-best">
              {f.best_points}
            </Table.Td>
            <Table.Td>
              <NextStep factor={f} />
            </Table.Td>
            <Table.Td maw={320}>
              <Hint factor={f} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function FactorCards({ data }: { data: CreditScoreData }) {
  const { t } = useTranslation('loans');
  const factorValue = useFactorValue();
  return (
    <Stack gap="sm" data-testid="score-factors-cards">
      {data.breakdown.map((f) => (
        <Paper key={f.factor} withBorder radius="lg" p="md" data-testid="score-factor" data-factor={f.factor}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Text fw={700}>{t(`factor.${f.factor}`)}</Text>
              <Text fw={700}>
                <span data-testid="factor-points">{f.points}</span> /{' '}
                <span data-testid="factor-best">{f.best_points}</span>
              </Text>
            </Group>
            <Fact label={t('score.value')}>{factorValue(f.unit, f.value)}</Fact>
            <NextStep factor={f} />
            <Hint factor={f} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function LimitTable({ data }: { data: CreditScoreData }) {
  const { t } = useTranslation('loans');
  return (
    <Stack gap="xs" data-testid="score-limits">
      <Text fw={700}>{t('score.limitsTitle')}</Text>
      {data.table.limits.map((band) => (
        <Group
          key={band.score_min}
          justify="space-between"
          data-testid="score-limit-band"
          data-current={data.score >= band.score_min ? '1' : '0'}
        >
          <Text size="sm">{t('score.limitsFrom', { score: band.score_min })}</Text>
          <Usdt value={band.limit} />
        </Group>
      ))}
    </Stack>
  );
}

/** Ask a person to review the score: the state when already asked, else a note and the button. */
function ReviewPanel({ data }: { data: CreditScoreData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const call = useRequestScoreReview();
  const [note, setNote] = useState('');
  const review = data.review;
  const open = review !== null && review.state === 'open';
  const refusal = call.error instanceof ApiError && call.error.kind === 'refused' ? call.error : null;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="score-review">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('review.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('review.lead')}
        </Text>
        {review !== null ? (
          <Alert
            color={open ? 'blue' : 'gray'}
            variant="light"
            p="sm"
            data-testid="score-review-state"
            data-state={review.state}
          >
            {t(open ? 'review.open' : 'review.closed', { date: words.time(review.created_at) })}
          </Alert>
        ) : null}
        {call.isSuccess ? (
          <Text size="sm" c="teal" data-testid="score-review-done">
            {t('review.done')}
          </Text>
        ) : null}
        {refusal?.reason ? (
          <RefusalNote code={refusal.reason} params={refusal.params ?? {}} message={refusal.message} />
        ) : null}
        {open || call.isSuccess ? null : (
          <>
            <Textarea
              label={t('review.note')}
              value={note}
              maxLength={500}
              onChange={(e) => setNote(e.currentTarget.value)}
              data-testid="score-review-note"
            />
            <Group>
              <Button
                onClick={() => call.mutate({ note })}
                loading={call.isPending}
                data-testid="score-review-ask"
              >
                {t('review.button')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The verification the profile's `credit_score` rule asks first (the tier the refusal names), or a
 * demo account: what to do, with the way to do it.
 */
function ScoreBlocked({ error }: { error: unknown }) {
  const { t } = useTranslation('loans');
  const tier = error instanceof ApiError ? refusedTier(error.reason, error.params) : null;
  if (error instanceof ApiError && tier !== null) {
    return (
      <Paper
        withBorder
        radius="lg"
        p="lg"
        data-testid="score-verify"
        data-reason={error.reason}
        data-tier={tier}
      >
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {t('score.verifyTitle')}
          </Title>
          <Text size="sm">{t('score.verifyBody', { tier: t(`tierName.${tier}`) })}</Text>
          <Group>
            <Button component={Link} to={VERIFICATION_LINKS[tier]} data-testid="score-verify-link">
              {t('score.verifyButton')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  }
  if (error instanceof ApiError && error.reason === 'REAL_ACCOUNT_REQUIRED') {
    return (
      <Alert color="gray" data-testid="loans-demo">
        {t('common.demo')}
      </Alert>
    );
  }
  return <ErrorNote error={error} />;
}

function ScoreView({ data }: { data: CreditScoreData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  return (
    <Stack gap="md">
      <Paper withBorder radius="lg" p="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {t('score.score')}
            </Text>
            <Text fz={48} fw={800} lh={1} data-testid="score-value">
              {data.score}
            </Text>
            <Text size="xs" c="dimmed" data-testid="score-version">
              {t('score.version', { version: data.version, date: words.date(data.table.published_at) })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('score.base', { points: data.base_points })}
            </Text>
          </Stack>
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {t('score.limit')}
            </Text>
            <Usdt value={data.limit} size="xl" fw={800} testId="score-limit" />
            <Group mt="sm">
              <Button component={Link} to={LOAN_ROUTES.apply} data-testid="score-apply">
                {t('score.toApply')}
              </Button>
            </Group>
            {data.loans_tier === 'none' ? null : (
              <Text size="xs" c="dimmed" data-testid="score-loans-tier" data-tier={data.loans_tier}>
                {t('apply.needTier', { tier: t(`tierName.${data.loans_tier}`) })}
              </Text>
            )}
          </Stack>
        </SimpleGrid>
      </Paper>
      <Paper withBorder={wide} radius="lg" p={wide ? 'md' : 0}>
        {wide ? <FactorTable data={data} /> : <FactorCards data={data} />}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="lg" p="md">
          <LimitTable data={data} />
        </Paper>
        <ReviewPanel data={data} />
      </SimpleGrid>
    </Stack>
  );
}

/** /xinyongfen: my credit score — the published formula's breakdown, the limit, a human review. */
export function ScorePage() {
  const { t } = useTranslation('loans');
  const token = useToken();
  const score = useCreditScore();
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="loans-score-page">
      <Title order={1} fz={{ base: 22, sm: 28 }}>
        {t('score.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('score.lead')}
      </Text>
      {token === null ? (
        <LoginPrompt />
      ) : score.isPending ? (
        <Loader size="sm" />
      ) : score.isError ? (
        <ScoreBlocked error={score.error} />
      ) : (
        <ScoreView data={score.data} />
      )}
      <OwnFundsNote />
    </Stack>
  );
}
