/** The part of an API failure its message is chosen from (see store/http.ts `ApiFailure`). */
interface Failure {
  status: number;
  code: string;
  message: string;
}

type Translate = (key: string, options?: { defaultValue?: string }) => string;

/**
 * What to say of a failed API call: the server writes English, naming the
 * record or the permission, so English shows its text; another language shows
 * the catalog's text for the error's stable `code` (`errors:codes.<code>`),
 * and the server's text when the catalog has none. No answer at all is a
 * network failure, in every language.
 */
export function failureMessage(failure: Failure, t: Translate, language: string | undefined): string {
  if (failure.status === 0) return t('errors:network');
  if (!language || language === 'en') return failure.message;
  return t(`errors:codes.${failure.code}`, { defaultValue: failure.message });
}
