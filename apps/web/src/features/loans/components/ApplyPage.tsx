import { type LendListData, LOAN_LIMITS, type LoanProductData } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { uploaderFor } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import {
  useApplyLoan,
  useCreditScore,
  useLendList,
  useLendMy,
  useLoanQuote,
  useWithdrawLoan,
} from '../api.ts';
import {
  type ApplyBlocker,
  amountProblem,
  applyBlocker,
  LOAN_ROUTES,
  refusedTier,
  VERIFICATION_LINKS,
} from '../logic.ts';
import { ErrorNote, LoginPrompt, OwnFundsNote, RefusalNote, useLoanWords } from './parts.tsx';
import { QuotePanel } from './QuotePanel.tsx';

const uploadProof = uploaderFor('loan_proof');

/** What stops an application, said before trying, with the way to fix it. */
function BlockerNote({ blocker }: { blocker: ApplyBlocker }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const withdraw = useWithdrawLoan();
  if (blocker.kind === 'login') return <LoginPrompt />;
  if (blocker.kind === 'demo')
    return (
      <Alert color="gray" data-testid="loans-demo">
        {t('common.demo')}
      </Alert>
    );
  if (blocker.kind === 'verification') {
    // The tier is the active profile's `loans` rule, as lendList carries it.
    const tier = t(`tierName.${blocker.tier}`);
    return (
      <Alert
        color="orange"
        variant="light"
        data-testid="apply-blocked"
        data-blocker={`verification_${blocker.tier}`}
      >
        <Stack gap={6}>
          <Text size="sm">{t('apply.needTier', { tier })}</Text>
          <Anchor
            component={Link}
            to={VERIFICATION_LINKS[blocker.tier]}
            fw={600}
            size="sm"
            data-testid="apply-blocked-fix"
          >
            {t('apply.needTierButton', { tier })}
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  if (blocker.kind === 'open') {
    const loan = blocker.loan;
    return (
      <Alert color="blue" variant="light" data-testid="apply-blocked" data-blocker="open">
        <Stack gap={6}>
          <Text size="sm">{t('apply.openExists', { state: words.state(loan.state) })}</Text>
          <Group gap="sm">
            <Button
              component={Link}
              to={LOAN_ROUTES.loan(loan.loan_id)}
              size="xs"
              variant="light"
              data-testid="apply-open-link"
            >
              {t('apply.openButton')}
            </Button>
            {loan.state === 'unreviewed' ? (
              <Button
                size="xs"
                color="red"
                variant="light"
                loading={withdraw.isPending}
                onClick={() => withdraw.mutate(loan.loan_id)}
                data-testid="apply-withdraw"
              >
                {t('apply.withdraw')}
              </Button>
            ) : null}
          </Group>
          {withdraw.isSuccess ? (
            <Text size="sm" c="teal">
              {t('apply.withdrawn')}
            </Text>
          ) : null}
          {withdraw.error instanceof ApiError ? <ErrorNote error={withdraw.error} /> : null}
        </Stack>
      </Alert>
    );
  }
  return <RefusalNote code="LOAN_LIMIT_EXCEEDED" params={{ limit: '0' }} testId="apply-blocked" />;
}

/** Up to five proof uploads, one field more each time one is stored. */
function ProofFields({ ids, onChange }: { ids: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation('loans');
  const slots = Math.min(ids.length + 1, LOAN_LIMITS.proofsMax);
  return (
    <Stack gap="xs" data-testid="apply-proofs">
      <Text size="sm" fw={600}>
        {t('apply.proofs', { max: LOAN_LIMITS.proofsMax })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('apply.proofsHint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {Array.from({ length: slots }, (_, i) => (
          <DocumentUpload
            // biome-ignore lint/suspicious/noArrayIndexKey: a slot is its position
            key={i}
            testId={`apply-proof-${i + 1}`}
            label={t('apply.proofLabel', { n: i + 1 })}
            upload={uploadProof}
            onUploaded={(stored) => {
              const next = [...ids];
              next[i] = stored.id;
              onChange(next);
            }}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function useApplyForm(list: LendListData) {
  const [params] = useSearchParams();
  const reapplyOf = params.get('reapply_of') || null;
  const token = useToken();
  const my = useLendMy();
  const score = useCreditScore();
  const [productId, setProductId] = useState(list.items[0]?.product_id ?? '');
  const product = list.items.find((p) => p.product_id === productId) ?? list.items[0] ?? null;
  const [amount, setAmount] = useState('');
  const [term, setTerm] = useState<number | null>(product?.term_days[0] ?? null);
  const [proofs, setProofs] = useState<string[]>([]);
  const [accepted, setAccepted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const limit = my.data?.limit ?? score.data?.limit ?? null;
  const scoreRefusal = score.error instanceof ApiError ? (score.error.reason ?? null) : null;
  const blocker = applyBlocker({
    signedIn: token !== null,
    scoreRefusal,
    loansTier: list.loans_tier,
    loansVerified: my.data?.loans_verified ?? null,
    open: my.data?.open ?? null,
    limit,
  });
  // The score (and the limit it gives) was refused for want of the profile's `credit_score` tier.
  const scoreTier =
    score.error instanceof ApiError ? refusedTier(score.error.reason, score.error.params) : null;
  const problem = product ? amountProblem(amount, product, limit) : null;
  const [settled] = useDebouncedValue(amount, 250);
  const quotable =
    product && term !== null && settled.trim() !== '' && amountProblem(settled, product, null) === null;
  const quote = useLoanQuote(
    quotable ? { product_id: product.product_id, amount: settled.trim(), term_days: term } : null,
  );
  const current =
    quote.data && !quote.isPlaceholderData && settled === amount && quotable ? quote.data : null;
  const ready = blocker === null && problem === null && current !== null && accepted && amount.trim() !== '';
  return {
    reapplyOf,
    product,
    setProductId,
    amount,
    setAmount,
    term,
    setTerm,
    proofs,
    setProofs,
    accepted,
    setAccepted,
    confirming,
    setConfirming,
    limit,
    scoreTier,
    blocker,
    problem,
    quote,
    current,
    ready,
    loading: token !== null && (my.isPending || score.isPending),
  };
}

type Form = ReturnType<typeof useApplyForm>;

function ProductPicker({ form, list }: { form: Form; list: LendListData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const product = form.product as LoanProductData;
  return (
    <Stack gap="sm">
      {list.items.length > 1 ? (
        <SegmentedControl
          value={product.product_id}
          onChange={(id) => {
            form.setProductId(id);
            const next = list.items.find((p) => p.product_id === id);
            form.setTerm(next?.term_days[0] ?? null);
          }}
          data={list.items.map((p) => ({ value: p.product_id, label: p.name }))}
          data-testid="apply-product"
        />
      ) : null}
      <Stack gap={2}>
        <Text fw={700} data-testid="apply-product-name">
          {product.name}
        </Text>
        <Text size="sm" c="dimmed">
          {product.description}
        </Text>
        <Text size="xs" c="dimmed">
          {t('apply.lender', { name: product.lender.name })}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('apply.amount')}
          description={t('apply.amountRange', {
            min: words.usdt(product.amount_min),
            max: words.usdt(product.amount_max),
          })}
          value={form.amount}
          inputMode="decimal"
          onChange={(e) => form.setAmount(e.currentTarget.value)}
          error={
            form.problem
              ? t(`apply.amountProblem.${form.problem.kind}`, {
                  min: 'min' in form.problem ? words.usdt(form.problem.min) : '',
                  max: 'max' in form.problem ? words.usdt(form.problem.max) : '',
                  limit: 'limit' in form.problem ? words.usdt(form.problem.limit) : '',
                })
              : undefined
          }
          data-testid="apply-amount"
        />
        <Select
          label={t('apply.term')}
          value={form.term === null ? null : String(form.term)}
          onChange={(v) => v && form.setTerm(Number.parseInt(v, 10))}
          data={product.term_days.map((d) => ({ value: String(d), label: t('apply.termDays', { days: d }) }))}
          allowDeselect={false}
          data-testid="apply-term"
        />
      </SimpleGrid>
    </Stack>
  );
}

function ApplyForm({ list }: { list: LendListData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const navigate = useNavigate();
  const form = useApplyForm(list);
  const call = useApplyLoan();
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  if (form.product === null)
    return (
      <Text c="dimmed" data-testid="apply-no-products">
        {t('apply.noProducts')}
      </Text>
    );
  const product = form.product;
  const submit = () => {
    if (!form.ready || form.term === null) return;
    setRefusal(null);
    call.mutate(
      {
        product_id: product.product_id,
        amount: form.amount.trim(),
        term_days: form.term,
        agreement_version: list.agreement_version,
        proof_ids: form.proofs.filter(Boolean),
        reapply_of: form.reapplyOf,
      },
      {
        onSuccess: (loan) => navigate(LOAN_ROUTES.loan(loan.loan_id)),
        onError: (error) => {
          form.setConfirming(false);
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };
  return (
    <Stack gap="md">
      {form.reapplyOf ? (
        <Alert color="blue" variant="light" data-testid="apply-reapply" style={{ overflowWrap: 'anywhere' }}>
          {t('apply.reapply', { id: form.reapplyOf })}
        </Alert>
      ) : null}
      <Paper withBorder radius="lg" p="md" data-testid="apply-eligibility">
        <Stack gap="xs">
          <Title order={2} fz="lg">
            {t('apply.eligibility')}
          </Title>
          {form.loading ? (
            <Loader size="sm" />
          ) : form.blocker ? (
            <BlockerNote blocker={form.blocker} />
          ) : (
            <Text size="sm" c="teal" data-testid="apply-eligible">
              {form.limit === null
                ? t('apply.eligibleNoLimit')
                : t('apply.eligible', { limit: words.usdt(form.limit) })}
            </Text>
          )}
          {!form.loading && form.blocker?.kind !== 'demo' && form.scoreTier !== null ? (
            <Text size="sm" c="dimmed" data-testid="apply-score-tier" data-tier={form.scoreTier}>
              {t('apply.scoreNeeds', { tier: t(`tierName.${form.scoreTier}`) })}{' '}
              <Anchor component={Link} to={VERIFICATION_LINKS[form.scoreTier]} size="sm">
                {t('score.verifyButton')}
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="lg" p="md" data-testid="apply-form">
          <Stack gap="md">
            <ProductPicker form={form} list={list} />
            <ProofFields ids={form.proofs} onChange={form.setProofs} />
            <Checkbox
              checked={form.accepted}
              onChange={(e) => form.setAccepted(e.currentTarget.checked)}
              label={t('apply.agreement', { version: list.agreement_version })}
              data-testid="apply-agreement"
            />
            {refusal?.reason ? (
              <RefusalNote code={refusal.reason} params={refusal.params ?? {}} message={refusal.message} />
            ) : null}
            <Button
              disabled={!form.ready}
              onClick={() => form.setConfirming(true)}
              data-testid="apply-submit"
            >
              {t('apply.submit')}
            </Button>
          </Stack>
        </Paper>
        {form.current ? (
          <QuotePanel quote={form.current} />
        ) : form.quote.error ? (
          <ErrorNote error={form.quote.error} />
        ) : (
          <Paper withBorder radius="lg" p="md">
            <Text size="sm" c="dimmed" data-testid="quote-waiting">
              {t('quote.waiting')}
            </Text>
          </Paper>
        )}
      </SimpleGrid>
      <Modal
        opened={form.confirming}
        onClose={() => form.setConfirming(false)}
        title={t('apply.confirmTitle')}
        centered
      >
        <Stack gap="md" data-testid="apply-confirm">
          <Text size="sm">
            {t('apply.confirmBody', { amount: words.usdt(form.amount.trim() || '0'), days: form.term ?? 0 })}
          </Text>
          {form.current ? <QuotePanel quote={form.current} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => form.setConfirming(false)}>
              {t('apply.cancel')}
            </Button>
            <Button onClick={submit} loading={call.isPending} data-testid="apply-confirm-button">
              {t('apply.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** /credit (`?reapply_of=` after a rejection): products, amount and term, the whole quote first, then applying. */
export function ApplyPage() {
  const { t } = useTranslation('loans');
  const list = useLendList();
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="loans-apply-page">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('apply.title')}
        </Title>
        <Group gap="md">
          <Anchor component={Link} to={LOAN_ROUTES.score} size="sm">
            {t('nav.score')}
          </Anchor>
          <Anchor component={Link} to={LOAN_ROUTES.list} size="sm">
            {t('nav.myLoans')}
          </Anchor>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('apply.lead')}
      </Text>
      {list.isPending ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <ErrorNote error={list.error} retry={() => void list.refetch()} />
      ) : (
        <ApplyForm list={list.data} />
      )}
      <OwnFundsNote />
    </Stack>
  );
}
