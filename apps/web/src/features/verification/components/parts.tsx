import {
  ALL_DOCUMENT_SLOTS,
  type DocumentSlot,
  type TierView,
  type VerificationData,
  type VerificationDocumentView,
  type VerificationReasonCode,
  type VerificationState,
  type VerificationTier,
} from '@bourse/protocol';
import { Alert, Anchor, Badge, Button, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useLogout } from '../../../api/userLogout.ts';
import { ChevronRightIcon } from '../../../components/icons.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { uploaderFor, useDocumentLink } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { useVerification } from '../api.ts';
import { type FormMode, formMode, TIER_PATH } from '../logic.ts';

const STATE_COLOR: Record<VerificationState, string> = {
  not_submitted: 'gray',
  under_review: 'blue',
  approved: 'teal',
  rejected: 'red',
  revision_requested: 'orange',
};

const DOC_COLOR: Record<VerificationDocumentView['status'], string> = {
  pending: 'blue',
  approved: 'teal',
  rejected: 'red',
  revision_requested: 'orange',
};

export const uploadVerification = uploaderFor('verification');

/** A tier's documents in its own order (front, back, hand-held …), whatever order the answer has. */
export function inSlotOrder<T extends { slot: DocumentSlot }>(documents: readonly T[]): T[] {
  return [...documents].sort(
    (a, b) => ALL_DOCUMENT_SLOTS.indexOf(a.slot) - ALL_DOCUMENT_SLOTS.indexOf(b.slot),
  );
}

/** A page of the verification area: a way back to the centre, the title, the intro. */
export function VerificationPage({
  title,
  intro,
  testId,
  back = true,
  aside,
  children,
}: {
  title: string;
  intro?: ReactNode;
  testId: string;
  back?: boolean;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} maw={1080} mx="auto" w="100%" data-testid={testId}>
      <Stack gap={6}>
        {back ? (
          <Anchor component={Link} to="/sfyz" size="sm" data-testid="verification-back">
            ← {t('back')}
          </Anchor>
        ) : null}
        <Group justify="space-between" align="flex-end" gap="sm">
          <Title order={1} size="h2">
            {title}
          </Title>
          {aside}
        </Group>
        {intro ? (
          <Text c="dimmed" maw={760}>
            {intro}
          </Text>
        ) : null}
      </Stack>
      {children}
    </Stack>
  );
}

/**
 * One tier's screen (primary, advanced, address): loading, the demo prompt, the tier it needs first,
 * then its state with either the data as sent (read only) or the form (new or revision). The form is
 * keyed by submission and state, so a decision arriving resets it.
 */
export function TierScreen<T extends VerificationTier>({
  tier,
  readOnly,
  form,
}: {
  tier: T;
  readOnly: (view: VerificationData[T], data: VerificationData) => ReactNode;
  form: (view: VerificationData[T], mode: Exclude<FormMode, 'readOnly'>, data: VerificationData) => ReactNode;
}) {
  const { t } = useTranslation(['kyc', 'verification']);
  const name: VerificationTier = tier;
  const verification = useVerification();
  const data = verification.data;
  const view = data?.[tier];
  const mode = view ? formMode(view) : 'readOnly';
  return (
    <VerificationPage
      title={t(`verification:tier.${name}`)}
      intro={t(`tierIntro.${name}`)}
      testId={`${tier}-page`}
      aside={view ? <StateBadge state={view.state} testId={`${tier}-state`} /> : null}
    >
      {!data || !view ? (
        <Loading error={verification.error} onRetry={() => void verification.refetch()} />
      ) : data.real !== 1 ? (
        <DemoPrompt />
      ) : !view.available && view.requires ? (
        <Alert color="orange" variant="light" data-testid={`${tier}-requires`}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('requires', { tier: t(`verification:tier.${view.requires}`) })}</Text>
            <TierLink
              tier={view.requires}
              to={TIER_PATH[view.requires]}
              label={t('requirement.goTo', { tier: t(`verification:tier.${view.requires}`) })}
            />
          </Stack>
        </Alert>
      ) : (
        <>
          <TierStatus view={view} />
          {mode === 'readOnly' ? (
            readOnly(view, data)
          ) : (
            <Fragment key={`${view.submission_id ?? 'new'}-${view.state}`}>{form(view, mode, data)}</Fragment>
          )}
        </>
      )}
    </VerificationPage>
  );
}

/** While the verification loads, or when it failed to. */
export function Loading({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation(['kyc', 'verification']);
  if (!error)
    return (
      <Group justify="center" py="xl">
        <Loader />
      </Group>
    );
  return (
    <Alert color="red" variant="light" data-testid="verification-load-failed">
      <Group justify="space-between">
        <Text size="sm">{t('loadFailed')}</Text>
        <Button size="xs" variant="light" onClick={onRetry}>
          {t('retry')}
        </Button>
      </Group>
    </Alert>
  );
}

export function StateBadge({ state, testId }: { state: VerificationState; testId?: string }) {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Badge
      color={STATE_COLOR[state]}
      variant="light"
      size="md"
      style={{ flexShrink: 0, overflow: 'visible' }}
      data-testid={testId}
      data-state={state}
    >
      {t(`verification:state.${state}`)}
    </Badge>
  );
}

export function DocStatusBadge({ status }: { status: VerificationDocumentView['status'] }) {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Badge color={DOC_COLOR[status]} variant="light" size="sm">
      {t(`verification:documentStatus.${status}`)}
    </Badge>
  );
}

/** The real-only prompt: verification belongs to a real account (spec 6). */
export function DemoPrompt() {
  const { t } = useTranslation(['kyc', 'verification']);
  const logout = useLogout();
  const navigate = useNavigate();
  const leaveTo = (path: string) => logout.mutate(undefined, { onSettled: () => navigate(path) });
  return (
    <Alert color="orange" variant="light" title={t('demo.title')} data-testid="verification-demo">
      <Stack gap="sm">
        <Text size="sm">{t('demo.body')}</Text>
        <Group gap="sm">
          <Button
            size="sm"
            loading={logout.isPending}
            onClick={() => leaveTo('/login')}
            data-testid="demo-login"
          >
            {t('demo.login')}
          </Button>
          <Button size="sm" variant="default" onClick={() => leaveTo('/register')}>
            {t('demo.register')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** A reviewer's reason as the customer reads it: the catalogue's text, and the note on its own line when there is one. */
export function useReasonText(): (code: VerificationReasonCode | null, note: string) => string {
  const { t } = useTranslation(['kyc', 'verification']);
  return (code, note) => {
    const text = code ? t(`verification:reasonCode.${code}`) : '';
    const noteText = note.trim() ? t('reasons.noteLabel', { note: note.trim() }) : '';
    return [text, noteText].filter(Boolean).join('\n');
  };
}

/** What the customer reads about a tier's state: under review, approved, rejected (why), revision (which and why). */
export function TierStatus({ view, compact = false }: { view: TierView; compact?: boolean }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const lang = useLang();
  const reasonText = useReasonText();
  const { state } = view;
  if (state === 'not_submitted') return null;
  const time =
    state === 'under_review'
      ? view.submitted_at !== null
        ? t('submittedAt', { time: formatDateTime(view.submitted_at, lang) })
        : null
      : view.decided_at !== null
        ? t('decidedAt', { time: formatDateTime(view.decided_at, lang) })
        : null;
  const color = STATE_COLOR[state];
  const flagged = view.documents.filter((d) => d.status === 'revision_requested');
  return (
    <Alert color={color} variant="light" p={compact ? 'xs' : 'sm'} data-testid={`status-${view.tier}`}>
      <Stack gap={6}>
        {compact ? null : <Text size="sm">{t(`stateNote.${state}`)}</Text>}
        {state === 'rejected' && view.reject_reasons.length > 0 ? (
          <Stack gap={2} data-testid={`reject-reasons-${view.tier}`}>
            <Text size="sm" fw={600}>
              {t('reasons.title')}
            </Text>
            <List size="sm" spacing={2}>
              {view.reject_reasons.map((r) => (
                <List.Item key={r.slot}>
                  <Text span size="sm" fw={600}>
                    {t(`verification:slot.${r.slot}`)}
                  </Text>
                  {' — '}
                  <span style={{ whiteSpace: 'pre-line' }}>{reasonText(r.reason_code, r.note)}</span>
                </List.Item>
              ))}
            </List>
          </Stack>
        ) : null}
        {state === 'revision_requested' && flagged.length > 0 ? (
          <Stack gap={2} data-testid={`revision-reasons-${view.tier}`}>
            <Text size="sm" fw={600}>
              {t('reasons.revisionTitle')}
            </Text>
            <List size="sm" spacing={2}>
              {flagged.map((d) => (
                <List.Item key={d.slot} data-testid={`revision-${d.slot}`}>
                  <Text span size="sm" fw={600}>
                    {t(`verification:slot.${d.slot}`)}
                  </Text>
                  {' — '}
                  <span style={{ whiteSpace: 'pre-line' }}>{reasonText(d.reason_code, d.note)}</span>
                </List.Item>
              ))}
            </List>
          </Stack>
        ) : null}
        {time ? (
          <Text size="xs" c="dimmed">
            {time}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/**
 * One document of a tier's form: the upload field, with the document already sent shown until it
 * is replaced; in a revision a flagged document carries the reviewer's reason, an unflagged one
 * stays as sent (it may still be replaced); read only, the document and its status.
 */
export function DocumentField({
  slot,
  view,
  flagged,
  readOnly,
  fileId,
  onUploaded,
  error,
  sample,
}: {
  slot: DocumentSlot;
  view: TierView;
  /** The reviewer asked for this one again. */
  flagged: boolean;
  readOnly: boolean;
  /** The new file chosen for this slot in this form, if any. */
  fileId: string | undefined;
  onUploaded: (fileId: string) => void;
  error?: string | null;
  sample?: ReactNode;
}) {
  const { t } = useTranslation(['kyc', 'verification']);
  const reasonText = useReasonText();
  const sent = view.documents.find((d) => d.slot === slot);
  // A rejected submission is sent again in full: its old files are not offered as current.
  const keep = sent && view.state !== 'rejected' ? sent : undefined;
  const link = useDocumentLink(fileId ? null : keep?.file_id);
  const testId = `doc-${slot}`;
  if (readOnly) {
    return (
      <Stack gap={6} data-testid={testId} data-state="read-only">
        <Group gap="xs">
          <Text fw={600} size="sm">
            {t(`verification:slot.${slot}`)}
          </Text>
          {sent ? <DocStatusBadge status={sent.status} /> : null}
        </Group>
        {link.data ? (
          <img
            src={link.data.url}
            alt={t('upload.previewOf', { name: t(`verification:slot.${slot}`) })}
            style={{
              maxHeight: 160,
              maxWidth: '100%',
              objectFit: 'contain',
              borderRadius: 'var(--mantine-radius-sm)',
              alignSelf: 'flex-start',
            }}
            data-testid={`${testId}-preview`}
          />
        ) : null}
      </Stack>
    );
  }
  const notice =
    flagged && sent ? (
      <Alert color="orange" variant="light" p="xs" data-testid={`${testId}-reason`}>
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {reasonText(sent.reason_code, sent.note)}
        </Text>
      </Alert>
    ) : keep && !fileId && view.state === 'revision_requested' ? (
      <Text size="xs" c="dimmed">
        {t('keepCurrent')}
      </Text>
    ) : null;
  return (
    <DocumentUpload
      testId={testId}
      label={t(`verification:slot.${slot}`)}
      description={t(`slotHint.${slot}`)}
      upload={uploadVerification}
      onUploaded={(stored) => onUploaded(stored.id)}
      current={keep && !flagged ? { id: keep.file_id, previewUrl: link.data?.url ?? null } : null}
      notice={notice}
      error={error}
      sample={sample}
    />
  );
}

/** The centre's link to a tier's form, in the words of what the customer can do there. */
export function TierLink({
  tier,
  label,
  to,
  testId,
}: {
  tier: VerificationTier;
  label: string;
  to: string;
  testId?: string;
}) {
  return (
    <Button
      component={Link}
      to={to}
      rightSection={<ChevronRightIcon size={16} />}
      data-testid={testId ?? `go-${tier}`}
    >
      {label}
    </Button>
  );
}

/** The illustrated sample of the hand-held photo: the ID beside the face, a note signed today. */
export function HandheldSample() {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Stack gap={4} align="center">
      <svg
        viewBox="0 0 150 170"
        width="100%"
        role="img"
        aria-label={t('handheld.sampleAlt')}
        style={{ maxWidth: 150, background: 'var(--mantine-color-default-hover)', borderRadius: 8 }}
        data-testid="handheld-sample"
      >
        <title>{t('handheld.sampleAlt')}</title>
        {/* body and head */}
        <path d="M30 170c0-34 20-52 45-52s45 18 45 52Z" fill="#9db4d6" />
        <circle cx="75" cy="72" r="24" fill="#f2c9a0" />
        <path d="M51 68c0-16 11-26 24-26s24 10 24 26c-6-9-15-13-24-13s-18 4-24 13Z" fill="#4a3b32" />
        {/* left arm holding the ID card beside the face */}
        <path
          d="M34 150c-8-20-8-44 0-66"
          stroke="#f2c9a0"
          strokeWidth="10"
          strokeLinecap="round"
          fill="none"
        />
        <rect x="6" y="58" width="44" height="30" rx="3" fill="#ffffff" stroke="#345" strokeWidth="1.5" />
        <rect x="10" y="63" width="12" height="15" rx="1.5" fill="#9aa9bb" />
        <path d="M26 66h20M26 72h16M26 78h18M10 83h36" stroke="#7a8797" strokeWidth="1.6" />
        {/* right arm holding the signed note */}
        <path
          d="M116 150c8-16 10-32 6-48"
          stroke="#f2c9a0"
          strokeWidth="10"
          strokeLinecap="round"
          fill="none"
        />
        <rect
          x="100"
          y="84"
          width="44"
          height="34"
          rx="2"
          fill="#fffbe6"
          stroke="#b59b3b"
          strokeWidth="1.2"
        />
        <text x="122" y="96" fontSize="8" textAnchor="middle" fill="#333" fontFamily="sans-serif">
          {t('handheld.noteText')}
        </text>
        <text x="122" y="105" fontSize="6" textAnchor="middle" fill="#555" fontFamily="sans-serif">
          2026-01-01
        </text>
        <path d="M106 112c4-5 7 3 10-1s5-4 8 0 6-3 10 0" stroke="#2a4d9b" strokeWidth="1.2" fill="none" />
      </svg>
      <Text size="xs" c="dimmed">
        {t('handheld.sample')}
      </Text>
    </Stack>
  );
}

/** The server's refusal of a submission, in its own localized words (other failures were already shown). */
export function SubmitRefusal({ error }: { error: unknown }) {
  const message = refusalMessage(error);
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" data-testid="verification-refusal">
      {message}
    </Alert>
  );
}

function refusalMessage(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

/** A read-only line of typed data. */
export function DataLine({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId} style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </Stack>
  );
}
