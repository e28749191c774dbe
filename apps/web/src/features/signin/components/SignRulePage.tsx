import type { SigninClaimData, SigninInfoData } from '@bourse/protocol';
import { Alert, Button, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useSignIn, useSigninInfo } from '../api.ts';
import { conditionText } from '../strip.ts';
import { BudgetPanel, Rules, StateNotice, Strip } from './parts.tsx';

function LoginPrompt() {
  const { t } = useTranslation('signin');
  const location = useLocation();
  return (
    <Button
      component={Link}
      to="/login"
      onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
      data-testid="signin-login"
    >
      {t('action.login')}
    </Button>
  );
}

function Paid({ paid }: { paid: SigninClaimData }) {
  const { t } = useTranslation('signin');
  return (
    <Alert color="teal" data-testid="signin-paid">
      {t('action.paid', { streak: paid.streak, amount: paid.amount, currency: paid.currency })}
    </Alert>
  );
}

/** The signed-in customer's side: the streak, today's amount with its condition, the button or "signed". */
function MyDay({ info }: { info: SigninInfoData }) {
  const { t } = useTranslation('signin');
  const lang = useLang();
  const signIn = useSignIn();
  const me = info.me;
  if (!me) return <LoginPrompt />;
  const condition = conditionText(info.condition, lang);
  const error =
    signIn.error instanceof ApiError || signIn.error instanceof Error ? signIn.error.message : null;
  return (
    <Stack gap="xs" data-testid="signin-me" data-streak={me.streak}>
      <Text fw={600} data-testid="signin-streak">
        {t('action.streak', { n: me.streak })}
      </Text>
      {me.book === 'demo' ? (
        <Text size="sm" c="dimmed" data-testid="signin-demo">
          {t('demo')}
        </Text>
      ) : null}
      {!me.verified ? (
        <Alert color="orange" data-testid="signin-verification">
          <Stack gap={4} align="flex-start">
            <Text size="sm">{t('verification.needed')}</Text>
            <Button component={Link} to="/authentication" size="xs" variant="light">
              {t('verification.verify')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {signIn.data ? <Paid paid={signIn.data} /> : null}
      {me.signed_today ? (
        <Text size="sm" data-testid="signin-signed-today">
          {t('action.signedToday', { time: formatDateTime(info.next_boundary_at, lang) })}
        </Text>
      ) : (
        <>
          {me.today_amount && me.today_streak_day ? (
            <Text size="sm" data-testid="signin-today">
              {t('action.todayEarns', {
                amount: me.today_amount,
                currency: info.currency,
                n: me.today_streak_day,
              })}
              {condition ? ` · ${condition}` : ''}
            </Text>
          ) : null}
          <Button
            size="md"
            onClick={() => signIn.mutate()}
            loading={signIn.isPending}
            disabled={info.state !== 'on' || !me.verified}
            data-testid="signin-button"
          >
            {t('action.signIn')}
          </Button>
        </>
      )}
      {error ? (
        <Text size="sm" c="red" data-testid="signin-error">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * `/signRule` (open without login): the seven-day strip with amounts and today, the sign-in button
 * (a login link otherwise), the programme's state and budget, the condition beside the amount, and
 * the rules as data — the time zone and the day boundary in the customer's local time too.
 */
export function SignRulePage() {
  const { t } = useTranslation('signin');
  const info = useSigninInfo();
  const data = info.data;
  return (
    <Stack gap="md" p="md" maw={1400} mx="auto" w="100%" data-testid="signin-page">
      <Title order={2}>{t('title')}</Title>
      <Text c="dimmed" size="sm">
        {t('intro')}
      </Text>
      {info.error ? (
        <Text c="red" size="sm" data-testid="signin-load-error">
          {info.error.message}
        </Text>
      ) : null}
      {data ? (
        <>
          <StateNotice info={data} />
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Stack gap="md">
                <Strip info={data} />
                <Paper withBorder radius="lg" p="md">
                  <MyDay info={data} />
                </Paper>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Stack gap="md">
                <BudgetPanel info={data} />
                <Rules info={data} />
              </Stack>
            </Grid.Col>
          </Grid>
        </>
      ) : null}
    </Stack>
  );
}
