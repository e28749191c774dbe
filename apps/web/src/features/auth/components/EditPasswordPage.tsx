import { useTranslation } from 'react-i18next';
import { AuthCard } from './AuthCard.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';

/**
 * `/editPassword`: change the login password with the current one (`POST web/updatePassword`); the
 * server ends every other session. The same form as `/forgetpwd?type=changepwd`.
 */
export function EditPasswordPage() {
  const { t } = useTranslation();
  return (
    <AuthCard
      title={t('auth.change.title')}
      subtitle={t('auth.change.subtitle')}
      testId="change-password-page"
    >
      <ChangePasswordForm />
    </AuthCard>
  );
}
