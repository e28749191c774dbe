import type { JurisdictionProfileId, QuestionData, ScoringVersionData } from '@bourse/protocol';
import { Alert, Badge, Button, Group, Loader, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useToken } from '../../../lib/session.ts';
import { useQuestionnaire, useRiskRating, useSubmitQuestionnaire } from '../api.ts';
import { answeredCount } from '../logic.ts';
import { CapsTable, RatingBadge } from './CapLines.tsx';

/** How the answers are scored: thresholds, ceilings, cooling-off, the version in force. */
function ScoringCard({ scoring, profile }: { scoring: ScoringVersionData; profile: JurisdictionProfileId }) {
  const { t } = useTranslation('suitability');
  const lang = useLang();
  const days = scoring.cooling_off_days;
  const values = { balanced: scoring.thresholds.balanced, aggressive: scoring.thresholds.aggressive };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="scoring-card">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('questionnaire.scoringTitle')}
        </Title>
        <Text size="sm">
          {days === 0
            ? t('questionnaire.scoringBodyNoCooling', values)
            : t('questionnaire.scoringBody', { ...values, count: days })}
        </Text>
        <Group gap="xs">
          <RatingBadge rating="conservative" size="sm" />
          <Text size="xs" c="dimmed">
            &lt; {values.balanced}
          </Text>
          <RatingBadge rating="balanced" size="sm" />
          <Text size="xs" c="dimmed">
            ≥ {values.balanced}
          </Text>
          <RatingBadge rating="aggressive" size="sm" />
          <Text size="xs" c="dimmed">
            ≥ {values.aggressive}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" data-testid="scoring-version">
          {t('questionnaire.version', {
            version: scoring.version,
            date: formatDate(scoring.created_at, lang),
          })}
          {' · '}
          {t(`profile.${profile}`)}
        </Text>
      </Stack>
    </Paper>
  );
}

/** One question: its options with the points and the ceiling each carries. */
function Question({
  index,
  question,
  scoring,
  value,
  onChange,
}: {
  index: number;
  question: QuestionData;
  scoring: ScoringVersionData;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('suitability');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid={`question-${question.id}`}>
      <Radio.Group
        value={value}
        onChange={onChange}
        label={
          <Text fw={600} size="md" component="span">
            {index + 1}. {t(`q.${question.id}.title`)}
          </Text>
        }
      >
        <Stack gap="xs" mt="sm">
          {question.options.map((option) => {
            const line = scoring.questions[question.id]?.[option];
            return (
              <Group key={option} justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                <Radio
                  value={option}
                  label={t(`q.${question.id}.${option}` as 'q.occupation.other')}
                  data-testid={`answer-${question.id}-${option}`}
                  style={{ minWidth: 0 }}
                />
                <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                  {line?.ceiling ? (
                    <Badge
                      size="sm"
                      variant="outline"
                      color="orange"
                      data-testid={`ceiling-${question.id}-${option}`}
                    >
                      {t('questionnaire.ceiling', { rating: t(`rating.${line.ceiling}`) })}
                    </Badge>
                  ) : null}
                  <Badge size="sm" variant="light" color="gray">
                    {t('questionnaire.points', { count: line?.points ?? 0 })}
                  </Badge>
                </Group>
              </Group>
            );
          })}
        </Stack>
      </Radio.Group>
    </Paper>
  );
}

/** /questionnaire: the published scoring table and caps first, then the questions (open; submitting needs a login). */
export function QuestionnairePage() {
  const { t } = useTranslation('suitability');
  const lang = useLang();
  const token = useToken();
  const navigate = useNavigate();
  const questionnaire = useQuestionnaire();
  const rating = useRiskRating();
  const submit = useSubmitQuestionnaire();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const data = questionnaire.data;
  if (!data)
    return (
      <Stack py={{ base: 'md', sm: 40 }} data-testid="questionnaire-page">
        <Title order={1} size="h2">
          {t('questionnaire.title')}
        </Title>
        {questionnaire.isPending ? <Loader size="sm" /> : null}
      </Stack>
    );
  const ids = data.questions.map((q) => q.id);
  const done = answeredCount(ids, answers);
  const mine = token ? rating.data : undefined;
  const blocked = mine !== undefined && !mine.can_retake;
  const error =
    submit.error instanceof ApiError && submit.error.kind === 'refused' ? submit.error.message : null;
  return (
    <Stack gap="xl" py={{ base: 'md', sm: 40 }} data-testid="questionnaire-page">
      <Stack gap="xs">
        <Title order={1} size="h2">
          {t('questionnaire.title')}
        </Title>
        <Text c="dimmed" maw={900}>
          {t('questionnaire.intro')}
        </Text>
        {mine ? (
          <Group gap="xs" data-testid="questionnaire-current">
            <Text size="sm">{t('questionnaire.current', { rating: t(`rating.${mine.rating}`) })}</Text>
            <Button component={Link} to="/fengxian" variant="subtle" size="compact-sm">
              {t('questionnaire.myAssessment')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      <ScoringCard scoring={data.scoring} profile={data.profile} />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="allows-card">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('questionnaire.allowsTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('questionnaire.allowsIntro', { profile: t(`profile.${data.profile}`) })}
          </Text>
          <CapsTable caps={data.caps} current={mine?.rating} />
          <Text size="xs" c="dimmed">
            {t('questionnaire.demoNote')}
          </Text>
        </Stack>
      </Paper>
      {/* Answers read next to their points: the questions keep a reading width on wide screens. */}
      <Stack gap="md" maw={980}>
        <Title order={2} size="h3">
          {t('questionnaire.questionsTitle')}
        </Title>
        {data.questions.map((q, i) => (
          <Question
            key={q.id}
            index={i}
            question={q}
            scoring={data.scoring}
            value={answers[q.id] ?? ''}
            onChange={(value) => setAnswers((a) => ({ ...a, [q.id]: value }))}
          />
        ))}
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} maw={980} data-testid="questionnaire-submit">
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid="answered">
            {t('questionnaire.answered', { done, total: ids.length })}
          </Text>
          {blocked && mine?.retake_after && mine.assessed_at ? (
            <Alert color="orange" data-testid="cooling-off">
              {t('questionnaire.coolingOff', {
                taken: formatDateTime(mine.assessed_at, lang),
                date: formatDateTime(mine.retake_after, lang),
              })}
            </Alert>
          ) : null}
          {error ? (
            <Alert color="red" data-testid="questionnaire-error">
              {error}
            </Alert>
          ) : null}
          {token === null ? (
            <Stack gap="xs">
              <Text size="sm">{t('questionnaire.loginHint')}</Text>
              <Button
                component={Link}
                to="/login"
                size="md"
                onClick={() => rememberReturnTo('/questionnaire')}
                data-testid="questionnaire-login"
              >
                {t('questionnaire.loginToSubmit')}
              </Button>
            </Stack>
          ) : (
            <Button
              size="md"
              disabled={done < ids.length || blocked}
              loading={submit.isPending}
              onClick={() => submit.mutate(answers, { onSuccess: () => navigate('/fengxian') })}
              data-testid="questionnaire-send"
            >
              {t('questionnaire.submit')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
