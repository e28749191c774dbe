import { useTranslation } from 'react-i18next';
import type { FieldError } from '../validation.ts';

/** Renders a field error in the current language; the wording is the server's where the server has one. */
export function useFieldErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation(['web', 'common']);
  return (error) => {
    if (!error) return undefined;
    switch (error.kind) {
      case 'required':
        return t('common:reason.FIELD_REQUIRED', { field: t(`common:field.${error.field}`) });
      case 'tooLong':
        return t('common:reason.FIELD_TOO_LONG', { field: t(`common:field.${error.field}`), max: error.max });
      case 'email':
        return t('common:reason.EMAIL_INVALID');
      case 'phone':
        return t('common:reason.PHONE_INVALID');
      case 'account':
        return t('common:reason.ACCOUNT_NAME_INVALID');
      case 'passwordLength':
        return t('common:reason.PASSWORD_LENGTH', { min: error.min, max: error.max });
      case 'mismatch':
        return t('common:reason.PASSWORDS_MISMATCH');
      case 'unchanged':
        return t('common:reason.PASSWORD_UNCHANGED');
      case 'code':
        return t('validation.codeFormat', { length: error.length });
      case 'agree':
        return t('common:reason.AGREEMENT_REQUIRED');
      case 'invitation':
        return t('common:reason.INVITATION_REQUIRED');
    }
  };
}
