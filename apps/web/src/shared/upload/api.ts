import type { DocumentLinkData, UploadDocumentData, UploadPurpose } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';
import type { UploadFn } from './DocumentUpload.tsx';
import { sendFile } from './send.ts';

/**
 * `POST web/uploadDocument` (multipart: `purpose`, then `file`): the one upload pipeline. The server
 * recognises the type by content, caps the size and pixels, re-encodes without metadata and stores
 * the file encrypted; the answer names the stored file.
 */
export function uploadDocument(
  purpose: UploadPurpose,
  file: File,
  options: { onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
): Promise<UploadDocumentData> {
  return sendFile<UploadDocumentData>({
    call: 'web/uploadDocument',
    fields: { purpose },
    file,
    fileName: file.name || 'photo.jpg',
    ...options,
  });
}

/** The `upload` prop of `DocumentUpload` for a purpose. */
export function uploaderFor(purpose: UploadPurpose): UploadFn {
  return async (file, options) => {
    const stored = await uploadDocument(purpose, file, options);
    return { id: stored.file_id };
  };
}

/**
 * `GET web/documentLink?file_id` (the owner only): a short-lived link to show a stored document.
 * Refetched before the link expires.
 */
export function useDocumentLink(fileId: string | null | undefined) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/documentLink', token, fileId],
    queryFn: () => apiGet<DocumentLinkData>('web/documentLink', { file_id: fileId ?? '' }),
    enabled: token !== null && typeof fileId === 'string' && fileId !== '',
    staleTime: 60_000,
    refetchInterval: 240_000,
    retry: false,
  });
}
