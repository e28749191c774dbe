import {
  type AddressData,
  type AdminVerificationDecideData,
  type AdminVerificationDetailData,
  type AdvancedData,
  ALL_DOCUMENT_SLOTS,
  DOCUMENT_DECISIONS,
  type DocumentSlot,
  ID_TYPES,
  type Lang,
  LOCALE_OF,
  type PrimaryData,
  type VerificationReasonCode,
  type VerificationTier,
} from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { DocumentViewer } from './DocumentViewer.tsx';
import { type Draft, decisionsOf, EMPTY_DRAFT, outcomeOf, reasonCodesFor } from './logic.ts';
import { FlagBadges, StateBadge } from './parts.tsx';

/** A country code with its name in the reader's language ("HK · Hong Kong SAR China"); none is a dash. */
function countryName(code: string, lang: Lang): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    const name = new Intl.DisplayNames([LOCALE_OF[lang]], { type: 'region' }).of(code);
    return name && name !== code ? `${code} · ${name}` : code;
  } catch {
    return code;
  }
}

function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }} data-testid={testId}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

/** The data the customer typed, beside the documents (the ID number decrypted for staff). */
function TypedData({ detail }: { detail: AdminVerificationDetailData }) {
  const { t } = useTranslation(['adminKyc', 'kyc', 'verification']);
  const tier: VerificationTier = detail.tier;
  if (tier === 'primary') {
    const data = detail.data as PrimaryData & { id_number: string };
    return (
      <>
        <Line label={t('kyc:form.realName')} value={data.real_name} testId="typed-real-name" />
        <Line label={t('kyc:form.idType')} value={t(`verification:idType.${ID_TYPES[data.id_type].code}`)} />
        <Line label={t('detail.idNumber')} value={data.id_number} testId="typed-id-number" />
      </>
    );
  }
  if (tier === 'advanced') {
    const data = detail.data as AdvancedData;
    return (
      <>
        <Line label={t('kyc:advanced.occupation')} value={t(`verification:occupation.${data.occupation}`)} />
        <Line
          label={t('kyc:advanced.monthlyIncome')}
          value={t(`verification:income.${data.monthly_income}`)}
        />
        <Line
          label={t('kyc:advanced.sourceOfWealth')}
          value={`${t(`verification:wealth.${data.source_of_wealth}`)}${data.wealth_note ? ` — ${data.wealth_note}` : ''}`}
        />
        <Line
          label={t('kyc:advanced.expectedInvestment')}
          value={t(`verification:investment.${data.expected_investment}`)}
        />
      </>
    );
  }
  const data = detail.data as AddressData;
  return <Line label={t('kyc:address.address')} value={data.residential_address} testId="typed-address" />;
}

function DecisionControls({
  slot,
  tier,
  draft,
  onChange,
}: {
  slot: DocumentSlot;
  tier: VerificationTier;
  draft: Draft;
  onChange: (draft: Draft) => void;
}) {
  const { t } = useTranslation(['adminKyc', 'verification']);
  const testId = `decide-${slot}`;
  return (
    <Stack gap="xs" data-testid={testId}>
      <SegmentedControl
        fullWidth
        size="xs"
        value={draft.decision ?? ''}
        onChange={(value) => {
          const decision = DOCUMENT_DECISIONS.find((d) => d === value) ?? null;
          onChange({ ...draft, decision });
        }}
        data={DOCUMENT_DECISIONS.map((d) => ({
          value: d,
          label: <span data-testid={`${testId}-${d}`}>{t(`verification:decision.${d}`)}</span>,
        }))}
        color={draft.decision === 'approve' ? 'teal' : draft.decision === 'reject' ? 'red' : 'orange'}
      />
      {draft.decision && draft.decision !== 'approve' ? (
        <>
          <Select
            size="xs"
            label={t('detail.reasonCode')}
            placeholder={t('detail.reasonCode')}
            value={draft.reason_code}
            onChange={(value) =>
              onChange({
                ...draft,
                reason_code: reasonCodesFor(tier).find((code) => code === value) ?? null,
              })
            }
            data={reasonCodesFor(tier).map((code: VerificationReasonCode) => ({
              value: code,
              label: t(`verification:reasonCode.${code}`),
            }))}
            comboboxProps={{ withinPortal: true }}
            data-testid={`${testId}-reason`}
          />
          <Textarea
            size="xs"
            label={t('detail.note')}
            description={t('detail.noteHint')}
            value={draft.note}
            maxLength={500}
            autosize
            minRows={1}
            onChange={(e) => onChange({ ...draft, note: e.currentTarget.value })}
            data-testid={`${testId}-note`}
          />
        </>
      ) : null}
    </Stack>
  );
}

/** A decided document's status and reason (a closed submission, or one without the decide permission). */
function DecidedNote({ doc }: { doc: AdminVerificationDetailData['documents'][number] }) {
  const { t } = useTranslation(['adminKyc', 'verification']);
  return (
    <Text size="xs" c="dimmed">
      {t(`verification:documentStatus.${doc.status}`)}
      {doc.reason_code ? ` · ${t(`verification:reasonCode.${doc.reason_code}`)}` : ''}
      {doc.note ? ` · ${doc.note}` : ''}
    </Text>
  );
}

function History({ detail }: { detail: AdminVerificationDetailData }) {
  const { t } = useTranslation(['adminKyc', 'verification']);
  const lang = useLang();
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={3} size="h5" mb="xs">
        {t('detail.history')}
      </Title>
      {detail.history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noHistory')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="verification-history">
          {detail.history.map((item) => (
            <Stack key={item.id} gap={2}>
              <Group gap="xs">
                <StateBadge state={item.state} />
                <Text size="xs" c="dimmed">
                  {formatTime(item.submitted_at, lang)}
                  {item.decided_by ? ` · ${item.decided_by}` : ''}
                </Text>
              </Group>
              {item.documents
                .filter((d) => d.reason_code)
                .map((d) => (
                  <Text key={d.slot} size="xs">
                    {t(`verification:slot.${d.slot}`)}:{' '}
                    {t(`verification:reasonCode.${d.reason_code as VerificationReasonCode}`)}
                    {d.note ? ` — ${d.note}` : ''}
                  </Text>
                ))}
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/**
 * A submission under review: the documents side by side (zoom, rotate), the data the customer typed
 * beside them (the ID number decrypted), the flags, and a decision per document — approve, reject or
 * ask for a revision, with a reason code from the catalogue and a note the customer reads. With
 * four-eyes on, an advanced submission's first approval waits for a second staff member.
 */
export default function VerificationDetailScreen() {
  const { t } = useTranslation(['adminKyc', 'verification', 'kyc']);
  const lang = useLang();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const me = useStaffMe();
  const mayDecide = hasPermission(me.data, 'verification.decide');
  const [drafts, setDrafts] = useState<Partial<Record<DocumentSlot, Draft>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const detail = useQuery({
    queryKey: ['verification/detail', id],
    queryFn: () => api.get<AdminVerificationDetailData>('verification/detail', { id }),
    enabled: id !== '',
    // The document links last five minutes; a long review reloads them (each issue is audited).
    staleTime: 240_000,
  });
  const data = detail.data;

  if (!data) {
    return (
      <Stack data-testid="verification-detail">
        <Anchor component={Link} to="/verification" size="sm">
          ← {t('detail.back')}
        </Anchor>
        {detail.error ? <ErrorNote error={detail.error} /> : <Loader m="xl" />}
      </Stack>
    );
  }

  // In the tier's own order (front, back, hand-held …), whatever order the answer lists them in.
  const documents = [...data.documents].sort(
    (a, b) => ALL_DOCUMENT_SLOTS.indexOf(a.slot) - ALL_DOCUMENT_SLOTS.indexOf(b.slot),
  );
  const slots = documents.map((d) => d.slot);
  const open = data.state === 'under_review';
  const deciding = open && mayDecide;
  const outcome = outcomeOf(slots.map((slot) => drafts[slot]));
  const slotNames = (list: DocumentSlot[]) => list.map((slot) => t(`verification:slot.${slot}`)).join(', ');

  const send = async () => {
    setProblem(null);
    setSendError(null);
    const checked = decisionsOf(slots, drafts);
    if (!checked.ok) {
      setProblem(t(`detail.${checked.problem.kind}`, { slots: slotNames(checked.problem.slots) }));
      return;
    }
    setBusy(true);
    try {
      const answer = await api.postJson<AdminVerificationDecideData>('verification/decide', {
        id: data.id,
        decisions: checked.decisions,
      });
      setNotice(
        answer.awaiting_second
          ? t('detail.decided.awaiting')
          : t(`detail.decided.${answer.state as 'approved' | 'rejected' | 'revision_requested'}`),
      );
      setDrafts({});
      await Promise.all([
        client.invalidateQueries({ queryKey: ['verification/detail', id] }),
        client.invalidateQueries({ queryKey: ['verification/queue'] }),
      ]);
    } catch (error) {
      setSendError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack data-testid="verification-detail" data-state={data.state}>
      <Anchor component={Link} to="/verification" size="sm" data-testid="verification-back">
        ← {t('detail.back')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2}>{t('detail.title', { tier: t(`verification:tier.${data.tier}`) })}</Title>
          <Text size="sm" c="dimmed">
            {data.customer_name || '—'} · {t('detail.uid', { uid: data.uid })} · {t('detail.submitted')}{' '}
            {formatTime(data.submitted_at, lang)}
          </Text>
        </Stack>
        <StateBadge state={data.state} />
      </Group>
      {notice ? (
        <Alert
          color="teal"
          variant="light"
          withCloseButton
          onClose={() => setNotice(null)}
          data-testid="decide-notice"
        >
          {notice}
        </Alert>
      ) : null}
      {data.four_eyes && data.tier === 'advanced' ? (
        <Alert color="violet" variant="light" data-testid="four-eyes">
          <Text size="sm">
            {data.first_approval
              ? t('detail.firstApproval', {
                  name: data.first_approval.staff_name,
                  time: formatTime(data.first_approval.at, lang),
                })
              : t('detail.fourEyes')}
          </Text>
        </Alert>
      ) : null}
      {!open ? (
        <Alert color="gray" variant="light" data-testid="verification-closed">
          {t('detail.closed', { state: t(`verification:state.${data.state}`) })}
        </Alert>
      ) : !mayDecide ? (
        <Alert color="gray" variant="light">
          {t('detail.noDecide')}
        </Alert>
      ) : null}
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, sm: 2, xl: slots.length >= 3 ? 3 : 2 }} spacing="md">
              {documents.map((doc) => (
                <DocumentViewer key={doc.slot} doc={doc} label={t(`verification:slot.${doc.slot}`)}>
                  {deciding ? (
                    <DecisionControls
                      slot={doc.slot}
                      tier={data.tier}
                      draft={drafts[doc.slot] ?? EMPTY_DRAFT}
                      onChange={(draft) => {
                        setDrafts((x) => ({ ...x, [doc.slot]: draft }));
                        setProblem(null);
                      }}
                    />
                  ) : (
                    <DecidedNote doc={doc} />
                  )}
                </DocumentViewer>
              ))}
            </SimpleGrid>
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                {t('detail.linkNote')}
              </Text>
              <Anchor
                component="button"
                type="button"
                size="xs"
                onClick={() => void detail.refetch()}
                data-testid="verification-reload"
              >
                {t('detail.reload')}
              </Anchor>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md">
              <Stack gap="sm" data-testid="verification-typed">
                <Title order={3} size="h5">
                  {t('detail.typed')}
                </Title>
                <Line label={t('detail.nationality')} value={countryName(data.nationality, lang)} />
                <TypedData detail={data} />
                <Stack gap={4}>
                  <Text size="xs" c="dimmed">
                    {t('detail.flags')}
                  </Text>
                  <FlagBadges flags={data.flags} />
                </Stack>
              </Stack>
            </Paper>
            {deciding ? (
              <Paper withBorder radius="md" p="md">
                <Stack gap="sm">
                  <Title order={3} size="h5">
                    {t('detail.decision')}
                  </Title>
                  <Button
                    variant="light"
                    color="teal"
                    onClick={() => {
                      setDrafts(
                        Object.fromEntries(
                          slots.map((slot) => [slot, { ...EMPTY_DRAFT, decision: 'approve' }]),
                        ),
                      );
                      setProblem(null);
                    }}
                    data-testid="approve-all"
                  >
                    {t('detail.approveAll')}
                  </Button>
                  {outcome ? (
                    <Text size="sm" data-testid="decide-outcome" data-outcome={outcome}>
                      {t(`detail.outcome.${outcome}`)}
                    </Text>
                  ) : null}
                  {problem ? (
                    <Alert color="orange" variant="light" p="xs" data-testid="decide-problem">
                      {problem}
                    </Alert>
                  ) : null}
                  <ErrorNote error={sendError} />
                  <Button loading={busy} onClick={() => void send()} data-testid="decide-submit">
                    {t('detail.submit')}
                  </Button>
                </Stack>
              </Paper>
            ) : null}
            <History detail={data} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
