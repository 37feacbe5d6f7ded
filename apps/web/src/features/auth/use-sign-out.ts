import { useNavigate } from 'react-router';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';

/** Where the sign-in screen learns that it was reached by signing out. */
export interface SignInState {
  signOut?: boolean;
}

/**
 * Goes to the sign-in screen, which then ends the session: ending it here
 * first would make the signed-in layout send the user to sign in "and back here".
 */
export function useSignOut(): () => void {
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  return () => {
    void navigate(localized('/sign-in'), { replace: true, state: { signOut: true } satisfies SignInState });
  };
}
