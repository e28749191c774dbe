import { SIGNIN_BUDGET_ACCOUNT, type SigninInfoData, type SigninState } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { zoneName } from '../../../shared/instrument/hours.ts';
import { conditionText, stripOf } from '../strip.ts';

const MARK = '\u2063';

/** A sentence with a code in it (a time zone, a ledger account): the code is marked not to translate. */
function WithCode({ text, code }: { text: string; code: string }) {
  const [before, after] = text.split(MARK);
  return (
    <>
      {before}
      <span translate="no">{code}</span>
      {after}
    </>
  );
}

const STATE_COLOR: Record<SigninState, string> = {
  on: 'teal',
  off: 'gray',
  budget_empty: 'orange',
  profile_forbids: 'gray',
};

/** The programme's state, said plainly (off, out of budget and forbidden each in their own words). */
export function StateNotice({ info }: { info: SigninInfoData }) {
  const { t } = useTranslation('signin');
  return (
    <Alert color={STATE_COLOR[info.state]} data-testid="signin-state" data-state={info.state}>
      {t(`state.${info.state}`)}
    </Alert>
  );
}

/** Day 1 … day 7 with their amounts, which are signed, and today's; the condition beside the amounts. */
export function Strip({ info }: { info: SigninInfoData }) {
  const { t } = useTranslation('signin');
  const lang = useLang();
  const condition = conditionText(info.condition, lang);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="signin-strip">
      <Stack gap="sm">
        <Title order={4}>{t('strip.title')}</Title>
        <SimpleGrid cols={{ base: 4, sm: 7 }} spacing="xs">
          {stripOf(info.amounts, info.me).map((day) => (
            <Paper
              key={day.n}
              withBorder
              radius="md"
              p="xs"
              bg={day.signed ? 'var(--mantine-color-teal-light)' : undefined}
              style={
                day.today ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined
              }
              data-testid="signin-day"
              data-day={day.n}
              data-signed={day.signed ? '1' : '0'}
              data-today={day.today ? '1' : '0'}
            >
              <Stack gap={2} align="center">
                <Text size="xs" c="dimmed">
                  {t('strip.day', { n: day.n })}
                </Text>
                <Num value={day.amount} fw={600} />
                <Text size="xs">{info.currency}</Text>
                {day.signed ? (
                  <Text size="xs" c="teal" fw={600} ta="center">
                    {t('strip.signed')}
                  </Text>
                ) : day.today ? (
                  <Text size="xs" c="blue" fw={600} ta="center">
                    {t('strip.today')}
                  </Text>
                ) : null}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
        <Text size="sm" data-testid="signin-condition">
          {t('condition.line', { text: condition ?? t('condition.none') })}
        </Text>
      </Stack>
    </Paper>
  );
}

/** What the budget still holds, and where rewards come from. */
export function BudgetPanel({ info }: { info: SigninInfoData }) {
  const { t } = useTranslation('signin');
  return (
    <Paper withBorder radius="lg" p="md" data-testid="signin-budget">
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {t('budget.label')}
        </Text>
        <Text fw={700} size="lg">
          <Num value={info.budget_remaining} data-testid="signin-budget-value" /> {info.currency}
        </Text>
        <Text size="xs" c="dimmed">
          <WithCode text={t('budget.hint', { account: MARK })} code={SIGNIN_BUDGET_ACCOUNT} />
        </Text>
      </Stack>
    </Paper>
  );
}

/** The zone as a reader knows it, with its exact name: "香港时间 (Asia/Hong_Kong)", "UTC". */
function zoneLabel(zone: string, lang: ReturnType<typeof useLang>): string {
  const name = zoneName(zone, lang);
  return name && name !== zone ? `${name} (${zone})` : zone;
}

/** The rules as data: the zone and its midnight, the boundary in local time, the cycle, resets, once a day. */
export function Rules({ info }: { info: SigninInfoData }) {
  const { t } = useTranslation('signin');
  const lang = useLang();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="signin-rules">
      <Stack gap="xs">
        <Title order={4}>{t('rules.title')}</Title>
        <List size="sm" spacing={4}>
          <List.Item data-testid="signin-rule-zone">
            <WithCode text={t('rules.timeZone', { zone: MARK })} code={zoneLabel(info.time_zone, lang)} />
          </List.Item>
          <List.Item data-testid="signin-rule-local">
            {t('rules.localBoundary', { time: formatDateTime(info.next_boundary_at, lang) })}
          </List.Item>
          <List.Item>{t('rules.cycle')}</List.Item>
          <List.Item data-testid="signin-rule-missed">{t('rules.missed')}</List.Item>
          <List.Item>{t('rules.once')}</List.Item>
          <List.Item>{t('rules.promo')}</List.Item>
          <List.Item>{t('rules.budget')}</List.Item>
          <List.Item>
            {info.verification === 'primary' ? t('rules.verificationPrimary') : t('rules.verificationNone')}
          </List.Item>
        </List>
      </Stack>
    </Paper>
  );
}
