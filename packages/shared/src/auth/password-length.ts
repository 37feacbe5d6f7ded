/**
 * The password policy's lengths, apart from its schemas (password-policy.ts):
 * the web app's sign-in screens show them before any zod has loaded (issue #11).
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
