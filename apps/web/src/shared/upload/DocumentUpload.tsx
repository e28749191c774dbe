import { Alert, Box, Button, Group, Image, Paper, Progress, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type DragEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraIcon, UploadIcon } from '../../components/icons.tsx';
import { ApiError } from '../../lib/api.ts';
import { type PrecheckRefusal, precheck, UPLOAD_ACCEPT, UPLOAD_MAX_BYTES } from './precheck.ts';

/** What an upload gives back to the form: the stored document's id. */
export type UploadedFile = { id: string };

/** Sends one chosen file; `onProgress` gets whole percents. */
export type UploadFn = (
  file: File,
  options: { onProgress: (percent: number) => void; signal: AbortSignal },
) => Promise<UploadedFile>;

export type DocumentUploadProps = {
  /** The field's name, e.g. "Front of the ID". */
  label: string;
  /** What the photo must show. */
  description?: string;
  /** Sends the file (e.g. `web/uploadDocument` with a purpose). */
  upload: UploadFn;
  /** Called with the stored document once the server accepted the file. */
  onUploaded: (file: UploadedFile) => void;
  /** A document already on file: shown until replaced (`previewUrl` from a short-lived link). */
  current?: { id: string; previewUrl?: string | null } | null;
  /** A sample of what a good photo looks like, shown beside the field. */
  sample?: ReactNode;
  /** The form's own message for this field (e.g. "required"). */
  error?: string | null;
  /** A note above the field (e.g. the reviewer's reason for asking for a new photo). */
  notice?: ReactNode;
  disabled?: boolean;
  /** Defaults to the pipeline's 8 MB. */
  maxBytes?: number;
  testId: string;
};

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

/**
 * One document field, reused by every screen that takes a photo of a paper (verification, C2C,
 * loans, support): choose a file, or on a phone take a photo with the back camera; the size and
 * type are checked before sending, the upload shows its progress, the image is previewed and can be
 * replaced. The server's refusal (too large, not an image, too many pixels, damaged …) is shown in
 * its own localized words: the server is the authority on what is accepted.
 */
export function DocumentUpload({
  label,
  description,
  upload,
  onUploaded,
  current,
  sample,
  error,
  notice,
  disabled = false,
  maxBytes = UPLOAD_MAX_BYTES,
  testId,
}: DocumentUploadProps) {
  const { t } = useTranslation('kyc');
  const touch = useMediaQuery('(pointer: coarse)', false, { getInitialValueInEffect: false });
  const pickRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [localUrl, setLocalUrl] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const labelId = useId();

  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(
    () => () => {
      if (localUrl) URL.revokeObjectURL(localUrl);
    },
    [localUrl],
  );

  const refusalText = (refusal: PrecheckRefusal): string =>
    refusal.rule === 'tooLarge'
      ? t('upload.tooLarge', { mb: refusal.maxMb })
      : refusal.rule === 'empty'
        ? t('upload.empty')
        : t('upload.type');

  const choose = async (file: File | undefined) => {
    if (!file || disabled) return;
    const refusal = precheck(file, maxBytes);
    if (refusal) {
      setPhase({ kind: 'failed', message: refusalText(refusal) });
      return;
    }
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setLocalUrl(URL.createObjectURL(file));
    setPhase({ kind: 'uploading', percent: 0 });
    try {
      const stored = await upload(file, {
        signal: controller.signal,
        onProgress: (percent) => {
          if (!controller.signal.aborted) setPhase({ kind: 'uploading', percent });
        },
      });
      if (controller.signal.aborted) return;
      setPhase({ kind: 'done' });
      onUploaded(stored);
    } catch (caught) {
      if (controller.signal.aborted) return;
      setLocalUrl(null);
      setPhase({
        kind: 'failed',
        message: caught instanceof ApiError ? caught.message : t('upload.failed'),
      });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  };

  const preview = localUrl ?? current?.previewUrl ?? null;
  const hasDocument = phase.kind === 'done' || (phase.kind !== 'uploading' && current != null);
  const uploading = phase.kind === 'uploading';
  const message = phase.kind === 'failed' ? phase.message : (error ?? null);

  const buttons = (
    <Group gap="xs" wrap="wrap">
      <Button
        size="sm"
        variant={hasDocument ? 'default' : 'light'}
        leftSection={<UploadIcon size={16} />}
        disabled={disabled || uploading}
        onClick={() => pickRef.current?.click()}
        data-testid={`${testId}-choose`}
      >
        {hasDocument ? t('upload.replace') : t('upload.choose')}
      </Button>
      {touch ? (
        <Button
          size="sm"
          variant="default"
          leftSection={<CameraIcon size={16} />}
          disabled={disabled || uploading}
          onClick={() => cameraRef.current?.click()}
          data-testid={`${testId}-camera`}
        >
          {t('upload.camera')}
        </Button>
      ) : null}
    </Group>
  );

  return (
    <Stack gap={6} data-testid={testId} data-state={hasDocument ? 'done' : phase.kind}>
      <Text fw={600} size="sm" id={labelId}>
        {label}
      </Text>
      {description ? (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      ) : null}
      {notice}
      <Group align="stretch" gap="sm" wrap="nowrap">
        <Paper
          withBorder
          radius="md"
          p="sm"
          flex={1}
          miw={0}
          aria-labelledby={labelId}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          style={{
            borderStyle: preview ? 'solid' : 'dashed',
            borderColor: message
              ? 'var(--mantine-color-red-6)'
              : dragging
                ? 'var(--mantine-color-blue-6)'
                : undefined,
          }}
        >
          <Stack gap="xs" align="stretch">
            {preview ? (
              <Box
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  overflow: 'hidden',
                  background: 'var(--mantine-color-default-hover)',
                }}
              >
                <Image
                  src={preview}
                  alt={t('upload.previewOf', { name: label })}
                  h={160}
                  fit="contain"
                  data-testid={`${testId}-preview`}
                />
              </Box>
            ) : (
              <Text size="sm" c="dimmed" ta="center" py="md">
                {t(touch ? 'upload.hintTouch' : 'upload.hint', { mb: Math.floor(maxBytes / (1024 * 1024)) })}
              </Text>
            )}
            {uploading ? (
              <Stack gap={2}>
                <Progress
                  value={phase.percent}
                  size="sm"
                  animated
                  aria-label={t('upload.progress', { percent: phase.percent })}
                  data-testid={`${testId}-progress`}
                />
                <Text size="xs" c="dimmed">
                  {t('upload.progress', { percent: phase.percent })}
                </Text>
              </Stack>
            ) : null}
            {phase.kind === 'done' ? (
              <Text size="xs" c="teal" data-testid={`${testId}-done`}>
                {t('upload.done')}
              </Text>
            ) : null}
            {buttons}
          </Stack>
        </Paper>
        {sample ? (
          <Box w={{ base: 110, sm: 150 }} style={{ flexShrink: 0 }}>
            {sample}
          </Box>
        ) : null}
      </Group>
      {message ? (
        <Alert color="red" variant="light" p="xs" role="alert" data-testid={`${testId}-error`}>
          <Text size="sm">{message}</Text>
        </Alert>
      ) : null}
      <input
        ref={pickRef}
        type="file"
        accept={UPLOAD_ACCEPT}
        hidden
        tabIndex={-1}
        data-testid={`${testId}-input`}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          void choose(file);
        }}
      />
      <input
        ref={cameraRef}
        type="file"
        accept={UPLOAD_ACCEPT}
        capture="environment"
        hidden
        tabIndex={-1}
        data-testid={`${testId}-capture`}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          void choose(file);
        }}
      />
    </Stack>
  );
}
