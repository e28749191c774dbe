import { type AdminLaunchpadProjectData, LAUNCHPAD_LIMITS } from '@bourse/protocol';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useCreateProject } from './api.ts';
import {
  CoinFields,
  EligibilityFields,
  FiguresFields,
  type Setter,
  TextsFields,
  WindowFields,
} from './ProjectFormFields.tsx';
import { ProjectPreview } from './ProjectPreview.tsx';
import { emptyProjectForm, fieldsOfRefusal, type ProjectForm, projectBody } from './projectForm.ts';

/** The fields a refusal names (`LAUNCHPAD_PROJECT_INVALID {field}`), to mark them like the form's own checks. */
function refusedFields(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.reason !== 'LAUNCHPAD_PROJECT_INVALID') return [];
  return fieldsOfRefusal(error.params?.field);
}

/**
 * The create form: every field of the project body, the margin fixed at 100 %, the preview of what
 * customers will read in three languages, and a reason. The project is created as a draft.
 */
export function ProjectFormModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (project: AdminLaunchpadProjectData) => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const create = useCreateProject();
  const [form, setForm] = useState<ProjectForm>(emptyProjectForm);
  const [bad, setBad] = useState<Set<string>>(new Set());
  const set: Setter = (key, value) => setForm((f) => ({ ...f, [key]: value }));
  const fields = { form, set, bad };
  const submit = () => {
    const { body, bad: problems } = projectBody(form, { nowMs: Date.now() });
    setBad(problems);
    if (!body) return;
    create.mutate(body, {
      onSuccess: (project) => {
        setForm(emptyProjectForm());
        onCreated(project);
      },
      onError: (error) => setBad(new Set(refusedFields(error))),
    });
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('form.title')}
      size="90rem"
      centered
      data-testid="launchpad-project-form"
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t('form.intro')}
        </Text>
        <Title order={5}>{t('form.sectionCoin')}</Title>
        <CoinFields {...fields} />
        <Title order={5}>{t('form.sectionTexts')}</Title>
        <TextsFields {...fields} />
        <Title order={5}>{t('form.sectionFigures')}</Title>
        <FiguresFields {...fields} />
        <Title order={5}>{t('form.sectionWindow')}</Title>
        <WindowFields {...fields} />
        <Title order={5}>{t('form.sectionEligibility')}</Title>
        <EligibilityFields {...fields} />
        <ProjectPreview form={form} />
        <Textarea
          label={t('form.reason')}
          value={form.reason}
          onChange={(e) => set('reason', e.currentTarget.value)}
          error={bad.has('reason')}
          maxLength={LAUNCHPAD_LIMITS.reasonMax}
          autosize
          minRows={2}
          data-testid="launchpad-form-reason"
        />
        {bad.size > 0 ? (
          <Alert
            color="orange"
            variant="light"
            data-testid="launchpad-form-bad"
            data-fields={[...bad].join(' ')}
          >
            {t('form.bad')}
          </Alert>
        ) : null}
        <ErrorNote error={create.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={create.isPending} onClick={submit} data-testid="launchpad-form-submit">
            {t('form.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
