import type { RiskRatingData } from '@bourse/protocol';
import { PRODUCT_CLASSES } from '@bourse/protocol';
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useRiskRating } from '../api.ts';
import { CapText, RatingBadge } from './CapLines.tsx';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The rating, when it was given, and when it may be retaken. */
function RatingCard({ data }: { data: RiskRatingData }) {
  const { t } = useTranslation('suitability');
  const lang = useLang();
  const current = data.history[0];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="rating-card">
      <Stack gap="md">
        <Group gap="sm" align="center">
          <Text size="sm" c="dimmed">
            {t('fengxian.rating')}
          </Text>
          <RatingBadge rating={data.rating} size="xl" />
        </Group>
        {current ? (
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
            <Fact label={t('fengxian.takenAt')} testId="rating-taken">
              {formatDateTime(current.taken_at, lang)}
            </Fact>
            <Fact label={t('fengxian.points')}>{current.points}</Fact>
            <Fact label={t('fengxian.version')}>{current.scoring_version}</Fact>
          </SimpleGrid>
        ) : (
          <Text size="sm" data-testid="not-assessed-hint">
            {t('fengxian.notAssessedHint')}
          </Text>
        )}
        {current?.ceiling ? (
          <Text size="sm" c="orange.7">
            {t('fengxian.ceilingApplied', { rating: t(`rating.${current.ceiling}`) })}
          </Text>
        ) : null}
        {data.can_retake ? (
          <Group justify="space-between" wrap="wrap" gap="sm">
            {current ? <Text size="sm">{t('fengxian.retakeNow')}</Text> : <span />}
            <Button component={Link} to="/questionnaire" data-testid="fengxian-take">
              {current ? t('fengxian.retake') : t('fengxian.take')}
            </Button>
          </Group>
        ) : (
          <Alert color="gray" data-testid="retake-from">
            {t('fengxian.retakeFrom', { date: formatDateTime(data.retake_after ?? 0, lang) })}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** What the rating allows, product class by product class, with the amounts. */
function AllowsCard({ data }: { data: RiskRatingData }) {
  const { t } = useTranslation('suitability');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="allows-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('fengxian.allowsTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('fengxian.allowsIntro', { profile: t(`profile.${data.profile}`) })}
        </Text>
        <Stack gap="xs">
          {PRODUCT_CLASSES.map((product) => (
            <Group
              key={product}
              justify="space-between"
              align="flex-start"
              wrap="nowrap"
              gap="md"
              data-testid={`allows-${product}`}
              style={{ borderBottom: '1px solid var(--mantine-color-default-border)', paddingBottom: 8 }}
            >
              <Text size="sm" fw={600}>
                {t(`product.${product}`)}
              </Text>
              <div style={{ textAlign: 'right' }}>
                <CapText product={product} cap={data.allows[product]} />
              </div>
            </Group>
          ))}
        </Stack>
        <Text size="xs" c="dimmed">
          {t('questionnaire.demoNote')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Every assessment, newest first: a table on wide screens, cards on phones. */
function History({ data }: { data: RiskRatingData }) {
  const { t } = useTranslation('suitability');
  const lang = useLang();
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const rows = data.history;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="history">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('fengxian.historyTitle')}
        </Title>
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('fengxian.historyEmpty')}
          </Text>
        ) : wide ? (
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fengxian.date')}</Table.Th>
                <Table.Th>{t('fengxian.rating')}</Table.Th>
                <Table.Th>{t('fengxian.points')}</Table.Th>
                <Table.Th>{t('fengxian.version')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((h, i) => (
                <Table.Tr key={h.assessment_id} data-testid="history-row">
                  <Table.Td>
                    {formatDateTime(h.taken_at, lang)}
                    {i === 0 ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        ({t('fengxian.current')})
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <RatingBadge rating={h.rating} size="sm" />
                  </Table.Td>
                  <Table.Td>{h.points}</Table.Td>
                  <Table.Td>{h.scoring_version}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Stack gap="xs">
            {rows.map((h) => (
              <Group key={h.assessment_id} justify="space-between" wrap="nowrap" data-testid="history-row">
                <Stack gap={0}>
                  <Text size="sm">{formatDateTime(h.taken_at, lang)}</Text>
                  <Text size="xs" c="dimmed">
                    {t('fengxian.points')} {h.points} · {t('fengxian.version')} {h.scoring_version}
                  </Text>
                </Stack>
                <RatingBadge rating={h.rating} size="sm" />
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** /fengxian: my risk assessment — rating, date, what it allows, when a retake is possible, history. */
export function RiskAssessmentPage() {
  const { t } = useTranslation('suitability');
  const rating = useRiskRating();
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const data = rating.data;
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} data-testid="fengxian-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('fengxian.title')}
        </Title>
        <Button component={Link} to="/questionnaire" variant="subtle">
          {t('link.questionnaire')}
        </Button>
      </Group>
      {!data ? (
        <Loader size="sm" />
      ) : wide ? (
        <SimpleGrid cols={2} spacing="lg">
          <Stack gap="lg">
            <RatingCard data={data} />
            <History data={data} />
          </Stack>
          <AllowsCard data={data} />
        </SimpleGrid>
      ) : (
        // Phones: the rating, then what it allows, then the history.
        <Stack gap="lg">
          <RatingCard data={data} />
          <AllowsCard data={data} />
          <History data={data} />
        </Stack>
      )}
    </Stack>
  );
}
