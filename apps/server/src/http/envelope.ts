import { catalogs, lookup, translate } from '@bourse/i18n';
import {
  CODE,
  DEFAULT_LANG,
  type Envelope,
  httpStatusOf,
  isLang,
  type Lang,
  LOCALE_OF,
  REASONS,
  type ReasonCode,
  type ReasonParams,
} from '@bourse/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ClaimLostError } from '../db/database.ts';
import { Refusal } from './refusal.ts';

/** Seconds before the app logs out and reloads after a 1000 (API.md default). */
const SESSION_ENDED_RELOAD_S = 2;

function headerLang(header: string | undefined): Lang | null {
  const first = header?.split(',')[0]?.trim().toLowerCase() ?? '';
  if (/^zh-(tw|hk|mo|hant)/.test(first)) return 'ft';
  if (first.startsWith('zh')) return 'zh';
  if (first.startsWith('en')) return 'en';
  return null;
}

/** The request's language: its `lang` field, else Accept-Language, else English. */
export function langOf(request: FastifyRequest): Lang {
  const fromBody = (request.body as Record<string, unknown> | undefined)?.lang;
  if (isLang(fromBody)) return fromBody;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.lang;
  if (isLang(fromQuery)) return fromQuery;
  return headerLang(request.headers['accept-language']) ?? DEFAULT_LANG;
}

export function ok<T>(request: FastifyRequest, data: T): Envelope<T> {
  return { code: CODE.OK, msg: translate(langOf(request), 'status.ok'), data };
}

/** Params whose codes are shown through `label.<param>.<code>` in the reader's language. */
const LABELLED_PARAMS = ['tier', 'feature', 'type', 'state', 'slot', 'profile', 'rating', 'product'] as const;

function regionName(lang: Lang, code: string): string {
  try {
    return new Intl.DisplayNames([LOCALE_OF[lang]], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function reasonEnvelope(lang: Lang, reason: ReasonCode, params: ReasonParams = {}): Envelope<null> {
  const code = REASONS[reason].code;
  // A field name in the message is shown in the reader's language; `params` keep the raw name.
  const shown: Record<string, string | number> = { ...params };
  if (typeof params.field === 'string' && lookup(catalogs.en.common, `field.${params.field}`)) {
    shown.field = translate(lang, `field.${params.field}`);
  }
  // So are the codes a reason names where the catalogs label them (`label.<param>.<code>`: a tier,
  // a feature, an ID type, a document slot…); unknown codes are shown as sent.
  for (const name of LABELLED_PARAMS) {
    const code = params[name];
    if (typeof code === 'string' && lookup(catalogs.en.common, `label.${name}.${code}`)) {
      shown[name] = translate(lang, `label.${name}.${code}`);
    }
  }
  // A country code is shown by its name in the reader's language (ICU's region names).
  if (typeof params.country === 'string' && /^[A-Z]{2}$/.test(params.country)) {
    shown.country = regionName(lang, params.country);
  }
  const envelope: Envelope<null> = {
    code,
    msg: translate(lang, `reason.${reason}`, shown),
    data: null,
    reason,
    params,
  };
  if (code === CODE.SESSION_ENDED) envelope.time = SESSION_ENDED_RELOAD_S;
  return envelope;
}

export function sendReason(
  request: FastifyRequest,
  reply: FastifyReply,
  reason: ReasonCode,
  params: ReasonParams = {},
): FastifyReply {
  const envelope = reasonEnvelope(langOf(request), reason, params);
  return reply.code(httpStatusOf(envelope.code)).send(envelope);
}

type AjvError = { keyword: string; instancePath: string; params: Record<string, unknown> };

/** Turns the first schema violation into a reason that names the field. */
export function validationReason(errors: readonly AjvError[]): { reason: ReasonCode; params: ReasonParams } {
  const first = errors[0];
  if (!first) return { reason: 'MALFORMED_BODY', params: {} };
  const field = first.instancePath.replace(/^\//, '').split('/')[0] || 'body';
  switch (first.keyword) {
    case 'required':
      return { reason: 'FIELD_REQUIRED', params: { field: String(first.params.missingProperty) } };
    case 'additionalProperties':
      return { reason: 'UNKNOWN_FIELD', params: { field: String(first.params.additionalProperty) } };
    case 'maxLength':
      return { reason: 'FIELD_TOO_LONG', params: { field, max: Number(first.params.limit) } };
    case 'minLength':
      return Number(first.params.limit) <= 1
        ? { reason: 'FIELD_REQUIRED', params: { field } }
        : { reason: 'FIELD_TOO_SHORT', params: { field, min: Number(first.params.limit) } };
    case 'type':
      return field === 'body'
        ? { reason: 'MALFORMED_BODY', params: {} }
        : { reason: 'BAD_INPUT', params: { field } };
    default:
      return { reason: 'BAD_INPUT', params: { field } };
  }
}

const FASTIFY_REASONS: Readonly<Record<string, ReasonCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_BODY',
};

export function errorHandler(bodyLimitBytes: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof Refusal) {
      if (error.reason === 'RATE_LIMITED' || error.reason === 'SPOT_BOOK_MOVED')
        reply.header('retry-after', String(error.params.seconds));
      return sendReason(request, reply, error.reason, error.params);
    }
    // A twin request with the same rtoken committed first: this run rolled back and changed nothing.
    if (error instanceof ClaimLostError) return sendReason(request, reply, 'REQUEST_IN_PROGRESS');
    if (error.validation) {
      const { reason, params } = validationReason(error.validation as AjvError[]);
      return sendReason(request, reply, reason, params);
    }
    const mapped = error.code ? FASTIFY_REASONS[error.code] : undefined;
    // An upload route's own limit (http/input.ts declares the route option).
    const upload = (request.routeOptions.config as { uploadMaxBytes?: number }).uploadMaxBytes;
    if (mapped === 'BODY_TOO_LARGE' && upload)
      return sendReason(request, reply, 'UPLOAD_TOO_LARGE', { maxBytes: upload });
    if (mapped === 'BODY_TOO_LARGE') return sendReason(request, reply, mapped, { maxBytes: bodyLimitBytes });
    if (mapped) return sendReason(request, reply, mapped);
    if (error instanceof SyntaxError || (error.statusCode !== undefined && error.statusCode < 500)) {
      request.log.info({ err: error }, 'malformed request');
      return sendReason(request, reply, 'MALFORMED_BODY');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendReason(request, reply, 'SERVER_ERROR');
  };
}
