import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useSessionEndedOn, useToken } from '../../../lib/session.ts';
import { AuthCard } from './AuthCard.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';

/** /forgetpwd resets by code; /forgetpwd?type=changepwd changes the password of the logged-in customer. */
export function ForgetPwdPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const token = useToken();
  const justEnded = useSessionEndedOn(location.key);

  if (params.get('type') === 'changepwd') {
    if (!token) {
      if (!justEnded) rememberReturnTo(`${location.pathname}${location.search}`);
      return <Navigate to="/login" replace />;
    }
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
  return (
    <AuthCard
      title={t('auth.forget.title')}
      subtitle={t('auth.forget.subtitle')}
      testId="reset-password-page"
    >
      <ResetPasswordForm />
    </AuthCard>
  );
}
