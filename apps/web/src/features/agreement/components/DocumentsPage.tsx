import {
  AGREEMENT_KINDS,
  type AgreementData,
  type AgreementKind,
  type AgreementStatusData,
} from '@bourse/protocol';
import { Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiGet } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useAcceptAgreement, useAgreementStatus } from '../api/agreements.ts';

type DocumentState = { kind: AgreementKind; data: AgreementData | null; missing: boolean; failed: boolean };

function DocumentCard({ doc, status }: { doc: DocumentState; status: AgreementStatusData | undefined }) {
  const { t } = useTranslation('agreements');
  const lang = useLang();
  const accept = useAcceptAgreement();
  const data = doc.data;
  const acceptance = data
    ? status?.accepted.find((a) => a.kind === doc.kind && a.version === data.version)
    : undefined;
  return (
    <Card withBorder radius="md" p="md" data-testid="bps-document" data-kind={doc.kind}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {data?.title ?? t(`kinds.${doc.kind}`)}
          </Title>
          {data ? <Badge variant="light">{t('documents.version', { version: data.version })}</Badge> : null}
        </Group>
        {data ? (
          <>
            <Text size="sm" c="dimmed">
              {t('documents.since', { date: formatDate(data.effective_at, lang) })}
            </Text>
            {acceptance ? (
              <Text size="sm" c="green" data-testid="bps-accepted">
                {t('documents.accepted', { date: formatDate(acceptance.accepted_at, lang) })}
              </Text>
            ) : status ? (
              <Text size="sm" c="orange" data-testid="bps-pending">
                {t('documents.pending')}
              </Text>
            ) : null}
            <Group gap="sm">
              <Anchor component={Link} to={`/userAgreement?kind=${doc.kind}`} size="sm">
                {t('documents.read')}
              </Anchor>
              {status && !acceptance ? (
                <Button
                  size="xs"
                  loading={accept.isPending}
                  onClick={() => accept.mutate({ kind: doc.kind, version: data.version })}
                  data-testid="bps-accept"
                >
                  {t('documents.accept')}
                </Button>
              ) : null}
            </Group>
          </>
        ) : (
          <Text size="sm" c={doc.failed ? 'red' : 'dimmed'}>
            {doc.failed ? t('documents.failed') : t('documents.none')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * /bps — "platform documents" (the route title the app already used): every agreement in force with
 * its version and date, and whether I accepted it, with accepting in place (docs/architecture.md,
 * "Routes the spec names without describing").
 */
export function DocumentsPage() {
  const { t } = useTranslation('agreements');
  const lang = useLang();
  const status = useAgreementStatus();
  const queries = useQueries({
    queries: AGREEMENT_KINDS.map((kind) => ({
      queryKey: ['web/getAgreement', kind, null, lang],
      queryFn: () => apiGet<AgreementData>('web/getAgreement', { kind, lang }),
      staleTime: 60_000,
    })),
  });
  const loading = queries.some((q) => q.isPending);
  const docs: DocumentState[] = AGREEMENT_KINDS.map((kind, i) => {
    const q = queries[i];
    const missing = (q?.error as { reason?: string } | null)?.reason === 'AGREEMENT_NOT_FOUND';
    return { kind, data: q?.data ?? null, missing, failed: Boolean(q?.error) && !missing };
  });
  return (
    <Stack gap="lg" my={{ base: 'md', sm: 40 }} maw={1200} mx="auto" data-testid="bps-page">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('documents.title')}
        </Title>
        <Text c="dimmed">{t('documents.lead')}</Text>
      </Stack>
      {loading ? (
        <Group justify="center" py="xl" data-testid="bps-loading">
          <Loader size="sm" aria-label={t('documents.loading')} />
        </Group>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {docs.map((doc) => (
            <DocumentCard key={doc.kind} doc={doc} status={status.data} />
          ))}
        </SimpleGrid>
      )}
      {status.isError ? (
        <Group gap="sm" data-testid="bps-status-error">
          <Text size="sm" c="red">
            {t('documents.failed')}
          </Text>
          <Button size="xs" variant="light" onClick={() => void status.refetch()}>
            {t('documents.retry')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
