import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { api, useSignOutMutation } from '../store/api.ts';
import { logout } from '../store/auth-slice.ts';
import { useAppDispatch } from '../store/hooks.ts';

/** Revokes the session on the server, then forgets it here and shows the sign-in screen. */
export function useSignOut(): () => Promise<void> {
  const [revoke] = useSignOutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const { t } = useTranslation('auth');
  return async () => {
    await revoke().catch(() => undefined);
    // Leave the signed-in screens first, so that they do not send the user to sign in "and back".
    await navigate(localized('/sign-in'), { replace: true });
    dispatch(logout());
    dispatch(api.util.resetApiState());
    toast.info(t('signedOut'), { toastId: 'signed-out' });
  };
}
