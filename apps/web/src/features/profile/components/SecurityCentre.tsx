import type { SecurityCenterData, SecurityItem } from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  NavLink,
  Paper,
  RingProgress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { ChevronRightIcon, LockIcon, ShieldIcon, UserIcon } from '../../../components/icons.tsx';
import { useSecurityCenter } from '../api.ts';
import { DevicesCard } from './DevicesCard.tsx';
import { PhraseModal } from './PhraseModal.tsx';
import { QuestionsModal } from './QuestionsModal.tsx';

type Panel = 'questions' | 'phrase';

function levelOf(score: number, max: number): { key: 'low' | 'medium' | 'high'; color: string } {
  const ratio = max > 0 ? score / max : 0;
  if (ratio >= 0.8) return { key: 'high', color: 'teal' };
  if (ratio >= 0.5) return { key: 'medium', color: 'yellow' };
  return { key: 'low', color: 'red' };
}

/** The score ring, the next step with its link, and every item with its points. */
function ScoreCard({ data }: { data: SecurityCenterData }) {
  const { t } = useTranslation('profile');
  const level = levelOf(data.score, data.max);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="security-score">
      <Group wrap="nowrap" gap="lg" align="center">
        <RingProgress
          size={104}
          thickness={10}
          roundCaps={data.score > 0}
          sections={[{ value: data.max > 0 ? (data.score * 100) / data.max : 0, color: level.color }]}
          label={
            <Text ta="center" fw={700} size="lg" data-testid="security-score-value">
              {data.score}
            </Text>
          }
        />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={2} size="h4">
            {t('centre.score')}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('centre.scoreOf', { score: data.score, max: data.max })}
            </Text>
            <Badge color={level.color} variant="light" data-testid="security-level">
              {t(`centre.level.${level.key}`)}
            </Badge>
          </Group>
        </Stack>
      </Group>
      {data.next ? (
        <Alert variant="light" color="blue" mt="md" data-testid="security-next" data-key={data.next.key}>
          <Group justify="space-between" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed">
                {t('centre.next')}
              </Text>
              <Text fw={600} size="sm">
                {t(`centre.items.${data.next.key}`)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('centre.nextHint', { points: data.next.points - data.next.earned })}
              </Text>
            </Stack>
            <Button component={Link} to={data.next.link} size="sm" data-testid="security-next-link">
              {t('centre.improve')}
            </Button>
          </Group>
        </Alert>
      ) : (
        <Alert variant="light" color="teal" mt="md" data-testid="security-all-done">
          {t('centre.allDone')}
        </Alert>
      )}
      <ul style={{ listStyle: 'none', padding: 0, margin: 'var(--mantine-spacing-md) 0 0' }}>
        {data.items.map((item) => (
          <ItemRow key={item.key} item={item} />
        ))}
      </ul>
    </Paper>
  );
}

function ItemRow({ item }: { item: SecurityItem }) {
  const { t } = useTranslation('profile');
  const state = item.done ? 'done' : item.earned > 0 ? 'partly' : 'notDone';
  return (
    <li>
      <NavLink
        component={Link}
        to={item.link}
        label={t(`centre.items.${item.key}`)}
        description={t('centre.points', { earned: item.earned, points: item.points })}
        rightSection={
          <Group gap={6} wrap="nowrap">
            <Badge
              size="sm"
              variant="light"
              color={item.done ? 'teal' : item.earned > 0 ? 'yellow' : 'gray'}
              data-testid={`security-item-state-${item.key}`}
            >
              {t(`centre.${state}`)}
            </Badge>
            <ChevronRightIcon size={14} />
          </Group>
        }
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        data-testid={`security-item-${item.key}`}
        data-done={item.done ? '1' : '0'}
      />
    </li>
  );
}

/** Name, phone, e-mail, login password, security questions and phrase: each opens where it is changed. */
function AccountCard({ data, open }: { data: SecurityCenterData; open: (panel: Panel) => void }) {
  const { t } = useTranslation('profile');
  const row = (props: {
    label: string;
    value: ReactNode;
    to?: string;
    onClick?: () => void;
    icon: ReactNode;
    testId: string;
  }) => {
    const common = {
      label: props.label,
      description: props.value,
      leftSection: props.icon,
      rightSection: <ChevronRightIcon size={16} />,
      style: { borderRadius: 'var(--mantine-radius-md)' },
      'data-testid': props.testId,
    };
    return props.to ? (
      <NavLink component={Link} to={props.to} {...common} />
    ) : (
      <NavLink component="button" type="button" onClick={props.onClick} {...common} />
    );
  };
  const phone = data.phone ? data.phone : t('account.notBound');
  return (
    <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'sm' }} data-testid="profile-account">
      <Title order={2} size="h4" px="sm" pt="xs" pb="xs">
        {t('account.title')}
      </Title>
      {row({
        label: t('account.name'),
        value: data.name ? <span translate="no">{data.name}</span> : t('account.notSet'),
        to: '/username',
        icon: <UserIcon size={18} />,
        testId: 'profile-row-name',
      })}
      {row({
        label: t('account.phone'),
        value: phone,
        to: '/mobile',
        icon: <UserIcon size={18} />,
        testId: 'profile-row-phone',
      })}
      {row({
        label: t('account.email'),
        value: data.email || t('account.notBound'),
        to: '/email',
        icon: <UserIcon size={18} />,
        testId: 'profile-row-email',
      })}
      {row({
        label: t('account.password'),
        value: t('account.passwordHint'),
        to: '/editPassword',
        icon: <LockIcon size={18} />,
        testId: 'profile-row-password',
      })}
      {row({
        label: t('questions.title'),
        value: data.questions_set ? t('questions.isSet') : t('account.notSet'),
        onClick: () => open('questions'),
        icon: <ShieldIcon size={18} />,
        testId: 'profile-row-questions',
      })}
      {row({
        label: t('phrase.title'),
        value: data.phrase ? <span translate="no">{data.phrase}</span> : t('account.notSet'),
        onClick: () => open('phrase'),
        icon: <ShieldIcon size={18} />,
        testId: 'profile-row-phrase',
      })}
    </Paper>
  );
}

/**
 * The security centre on `/setting`: the score with the next step, the account's contacts and
 * security settings, and the signed-in devices. `?panel=questions|phrase` opens those forms (the
 * score's links point there).
 */
export function SecurityCentre() {
  const { t } = useTranslation('profile');
  const center = useSecurityCenter();
  const info = useInfo();
  const [params, setParams] = useSearchParams();
  const panel = params.get('panel');
  const open = (next: Panel) => setParams({ panel: next }, { replace: false });
  const close = () => setParams({}, { replace: true });

  if (center.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label={t('centre.title')} />
      </Group>
    );
  }
  if (!center.data) return null;
  if (info.data?.is_demo) {
    // A demo account has no password, contacts or security settings of its own: only its devices.
    return (
      <Stack gap="lg" data-testid="security-centre">
        <Alert variant="light" color="orange" data-testid="security-demo">
          {t('centre.demo')}
        </Alert>
        <DevicesCard />
      </Stack>
    );
  }
  return (
    <Stack gap="lg" data-testid="security-centre">
      <ScoreCard data={center.data} />
      <AccountCard data={center.data} open={open} />
      <DevicesCard />
      <QuestionsModal opened={panel === 'questions'} isSet={center.data.questions_set} onClose={close} />
      <PhraseModal opened={panel === 'phrase'} current={center.data.phrase} onClose={close} />
    </Stack>
  );
}
