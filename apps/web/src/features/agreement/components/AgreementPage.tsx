import { AGREEMENT_KINDS, type AgreementData, type AgreementKind } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useAgreement } from '../api/agreements.ts';
import { AgreementBlocks } from './AgreementBlocks.tsx';

function kindOf(value: string | null): AgreementKind {
  return (AGREEMENT_KINDS as readonly string[]).includes(value ?? '') ? (value as AgreementKind) : 'user';
}

function versionOf(value: string | null): string | null {
  return value && /^[1-9][0-9]{0,5}$/.test(value) ? value : null;
}

function Versions({ data, path }: { data: AgreementData; path: string }) {
  const { t } = useTranslation('agreements');
  const lang = useLang();
  return (
    <Stack gap={6} component="nav" data-testid="agreement-versions">
      <Title order={2} size="h5">
        {t('page.versions')}
      </Title>
      {data.versions.map((v) => (
        <Group key={v.version} gap="xs" wrap="wrap" data-testid="agreement-version-item">
          <Anchor
            component={Link}
            to={`${path}?kind=${data.kind}&version=${v.version}`}
            size="sm"
            fw={v.version === data.version ? 700 : 400}
          >
            {t('page.versionItem', { version: v.version, date: formatDate(v.effective_at, lang) })}
          </Anchor>
          {v.version === data.versions[0]?.version ? (
            <Badge size="xs" variant="light">
              {t('page.inForce')}
            </Badge>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}

function OtherDocuments({ kind, path }: { kind: AgreementKind; path: string }) {
  const { t } = useTranslation('agreements');
  return (
    <Group gap="md" data-testid="agreement-others">
      <Text size="sm" c="dimmed">
        {t('page.others')}
      </Text>
      {AGREEMENT_KINDS.filter((k) => k !== kind).map((k) => (
        <Anchor
          key={k}
          component={Link}
          to={`${path}?kind=${k}`}
          size="sm"
          data-testid={`agreement-link-${k}`}
        >
          {t(`kinds.${k}`)}
        </Anchor>
      ))}
    </Group>
  );
}

function Document({ data, path }: { data: AgreementData; path: string }) {
  const { t } = useTranslation('agreements');
  const lang = useLang();
  const date = formatDate(data.effective_at, lang);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2" data-testid="agreement-title">
          {data.title}
        </Title>
        <Text size="sm" c="dimmed" data-testid="agreement-meta">
          {t('page.version', { version: data.version })} ·{' '}
          {data.current ? t('page.effective', { date }) : t('page.effectiveEarlier', { date })}
        </Text>
      </Stack>
      {data.current ? null : (
        <Alert color="yellow" data-testid="agreement-earlier">
          <Stack gap={6} align="flex-start">
            <Text size="sm">{t('page.earlierNote')}</Text>
            <Anchor component={Link} to={`${path}?kind=${data.kind}`} size="sm">
              {t('page.readCurrent')}
            </Anchor>
          </Stack>
        </Alert>
      )}
      {data.summary ? (
        <Paper withBorder p="sm" radius="md" data-testid="agreement-summary">
          <Text size="sm" fw={600}>
            {t('page.changes')}
          </Text>
          <Text size="sm">{data.summary}</Text>
        </Paper>
      ) : null}
      <Stack gap="sm" data-testid="agreement-body">
        <AgreementBlocks blocks={data.blocks} />
      </Stack>
      <Divider />
      <Versions data={data} path={path} />
      <OtherDocuments kind={data.kind} path={path} />
    </Stack>
  );
}

/**
 * /userAgreement, /agrt and /agreement: an agreement in force (`?kind=`: user by default, privacy,
 * risk), or an earlier version (`?version=`), with its version, effective date and every version.
 */
export function AgreementPage() {
  const { t } = useTranslation('agreements');
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const kind = kindOf(params.get('kind'));
  const agreement = useAgreement(kind, versionOf(params.get('version')));
  const missing =
    agreement.error && (agreement.error as { reason?: string }).reason === 'AGREEMENT_NOT_FOUND';
  return (
    <Paper
      component="article"
      withBorder
      radius="lg"
      maw={820}
      mx="auto"
      my={{ base: 'md', sm: 40 }}
      p={{ base: 'md', sm: 40 }}
      data-testid="agreement-page"
      data-kind={kind}
    >
      {agreement.isPending ? (
        <Group justify="center" py="xl" data-testid="agreement-loading">
          <Loader size="sm" aria-label={t('page.loading')} />
        </Group>
      ) : agreement.data ? (
        <Document data={agreement.data} path={pathname} />
      ) : missing ? (
        <Stack gap="md">
          <Title order={1} size="h2">
            {t(`kinds.${kind}`)}
          </Title>
          <Text c="dimmed" data-testid="agreement-empty">
            {t('page.empty')}
          </Text>
          <OtherDocuments kind={kind} path={pathname} />
        </Stack>
      ) : (
        <Stack gap="sm" align="flex-start" data-testid="agreement-error">
          <Text c="red">{t('page.failed')}</Text>
          <Button variant="light" size="xs" onClick={() => void agreement.refetch()}>
            {t('page.retry')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
