import { ACCESS_LIMITS } from '@bourse/protocol';
import { Anchor, Button, Checkbox, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { usePasswordRule, usePublicConfig } from '../../../api/publicConfig.ts';
import { type UserRegisterInput, useUserRegister } from '../api/userRegister.ts';
import { useFieldErrorText } from '../hooks/useFieldErrorText.ts';
import { type IdentityMode, useIdentity } from '../hooks/useIdentity.ts';
import { useSignedIn } from '../hooks/useSignedIn.ts';
import {
  checkCode,
  checkConfirm,
  checkInvitation,
  checkPassword,
  collect,
  type Errors,
  hasErrors,
} from '../validation.ts';
import { AuthCard } from './AuthCard.tsx';
import { CodeField } from './CodeField.tsx';
import { CountrySelect } from './CountrySelect.tsx';
import { FormAlert, refusalOf } from './FormAlert.tsx';
import { IdentityFields } from './IdentityFields.tsx';
import { PasswordPair } from './PasswordPair.tsx';

type Field = 'code' | 'password' | 'password2' | 'invitation' | 'agree';

/** /register: by email or by phone, the country (the nationality, on both tabs), a code, a password, the invitation code, the agreement. */
export function RegisterPage() {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const [params] = useSearchParams();
  const config = usePublicConfig();
  const rule = usePasswordRule();
  const register = useUserRegister();
  const signedIn = useSignedIn();
  const identity = useIdentity();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [invitation, setInvitation] = useState(() =>
    (params.get('invite') ?? '').slice(0, ACCESS_LIMITS.invitationCodeMax),
  );
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [codeRefusal, setCodeRefusal] = useState<string | null>(null);
  const invitationRequired = config.data?.invitation_required ?? false;

  const clear = (field: Field) => setErrors((current) => ({ ...current, [field]: undefined }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = identity.resolve();
    const found = collect<Field>({
      code: checkCode(code),
      password: checkPassword(password, rule),
      password2: checkConfirm(password, password2),
      invitation: checkInvitation(invitation, invitationRequired),
      agree: agree ? null : { kind: 'agree' },
    });
    setErrors(found);
    if (!target || hasErrors(found)) return;
    const input: UserRegisterInput = {
      type: identity.mode,
      account: target.account,
      code: code.trim(),
      password,
      password2,
      invitation_code: invitation.trim(),
      agree: '1',
    };
    // The country is the nationality on both tabs (on the phone tab also the phone's country).
    input.country = identity.country;
    if (identity.mode === 'phone') input.area_code = target.area_code;
    setCodeRefusal(null);
    register.mutate(input, { onSuccess: (data) => signedIn(data.token_h5, t('auth.register.welcome')) });
  };

  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      testId="register-page"
      footer={
        <Text size="sm">
          {t('auth.register.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fw={600} data-testid="link-login">
            {t('auth.register.toLogin')}
          </Anchor>
        </Text>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Tabs
            value={identity.mode}
            onChange={(value) => identity.setMode((value as IdentityMode | null) ?? 'email')}
            keepMounted={false}
          >
            <Tabs.List grow aria-label={t('auth.register.tabsLabel')} mb="md">
              <Tabs.Tab value="email" data-testid="register-tab-email">
                {t('auth.register.tabEmail')}
              </Tabs.Tab>
              <Tabs.Tab value="phone" data-testid="register-tab-phone">
                {t('auth.register.tabPhone')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="email">
              <Stack gap="sm">
                <CountrySelect
                  value={identity.country}
                  onChange={identity.setCountry}
                  testId="register-country"
                  description={t('auth.register.nationality')}
                />
                <IdentityFields identity={identity} testIdPrefix="register" />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="phone">
              <IdentityFields
                identity={identity}
                testIdPrefix="register"
                countryDescription={t('auth.register.nationality')}
              />
            </Tabs.Panel>
          </Tabs>
          <CodeField
            scene="register"
            target={identity.resolve}
            value={code}
            onChange={(value) => {
              setCode(value);
              clear('code');
            }}
            error={errorText(errors.code)}
            onRefused={setCodeRefusal}
            testId="register-code"
          />
          <PasswordPair
            password={password}
            onPassword={(value) => {
              setPassword(value);
              clear('password');
            }}
            confirm={password2}
            onConfirm={(value) => {
              setPassword2(value);
              clear('password2');
            }}
            passwordError={errorText(errors.password)}
            confirmError={errorText(errors.password2)}
            passwordLabel={t('auth.password.label')}
            confirmLabel={t('auth.password.confirm')}
            testIdPrefix="register"
          />
          <TextInput
            label={t('auth.register.invitation')}
            description={
              <span
                data-testid="register-invitation-rule"
                data-required={invitationRequired ? 'true' : 'false'}
              >
                {invitationRequired
                  ? t('auth.register.invitationRequired')
                  : t('auth.register.invitationOptional')}
              </span>
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            withAsterisk={invitationRequired}
            required={invitationRequired}
            autoComplete="off"
            value={invitation}
            onChange={(event) => {
              setInvitation(event.currentTarget.value);
              clear('invitation');
            }}
            error={errorText(errors.invitation)}
            data-testid="register-invitation"
          />
          <Checkbox
            checked={agree}
            onChange={(event) => {
              setAgree(event.currentTarget.checked);
              clear('agree');
            }}
            error={errorText(errors.agree)}
            label={
              <Trans
                i18nKey="auth.register.agree"
                components={{
                  terms: (
                    <Anchor
                      component={Link}
                      to="/agrt"
                      target="_blank"
                      rel="noopener"
                      data-testid="register-agreement-link"
                    />
                  ),
                  // The platform documents (/bps): the privacy notice and the risk disclosure.
                  documents: (
                    <Anchor
                      component={Link}
                      to="/bps"
                      target="_blank"
                      rel="noopener"
                      data-testid="register-documents-link"
                    />
                  ),
                }}
              />
            }
            data-testid="register-agree"
          />
          <FormAlert message={codeRefusal ?? refusalOf(register.error)} testId="register-error" />
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={register.isPending}
            data-testid="register-submit"
          >
            {t('auth.register.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
