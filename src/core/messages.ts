// User-facing texts, the product's exact words (docs/PRODUCT.md, "Messages"). Shared by the server and the
// web app.
export const ACCOUNT_DISABLED = 'This account has been disabled. Please contact support.';
export const WRONG_PASSWORD = 'Incorrect password. Please try again.';
export const USER_NOT_FOUND =
  'No account found with this email address. Please check your email or create a new account.';
export const INVALID_EMAIL = 'Please enter a valid email address.';
export const EMAIL_IN_USE = 'An account with this email already exists. Please sign in instead.';
export const weakPassword = (min: number) =>
  `Password is too weak. Please choose a password with at least ${min} characters.`;
export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please try again later.';
/** A rep's writes of the day reached FOLLOW_UPS_PER_DAY or CALL_LOGS_PER_DAY. */
export const tooManyFollowUpsToday = (max: number) =>
  `You have set ${max} follow-ups today, the most for one day. Please set more tomorrow.`;
export const tooManyCallLogsToday = (max: number) =>
  `You have logged ${max} calls and visits today, the most for one day. Please log more tomorrow.`;
export const NETWORK_ERROR = 'Network error. Please check your internet connection and try again.';
export const GENERIC_ERROR = 'An error occurred. Please try again.';
export const NOT_AUTHENTICATED = 'User not authenticated';
/** A password re-check (the hard delete) asked without a signed-in user. */
export const REAUTH_NOT_AUTHENTICATED = 'Not authenticated';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const INVITATION_REQUIRED = 'Invitation code is required';
export const INVITATION_ENTER_VALID = 'Please enter a valid invitation code';
export const INVITATION_INVALID = 'Invalid invitation code';
export const INVITATION_USED = 'Invitation code has already been used';
export const INVITATION_EXPIRED = 'Invitation code has expired';
export const INVITATION_ERROR = 'Error validating invitation code';
export const INVITATION_VALID = 'Valid invitation code';
export const INVITATION_VALIDATING = 'Validating invitation code...';
export const INVITATION_WRONG_EMAIL = 'This invitation code was issued for a different email address';
export const ONLY_ADMINS_GENERATE = 'Only admins can generate invitations';
export const ONLY_ADMINS_VIEW = 'Only admins can view invitations';
export const ONLY_ADMINS_REMOVE_ADVERTISERS = 'Only admins can remove current advertisers';
export const FORGOT_PASSWORD_NEEDS_EMAIL = 'Enter your email above, then click "Forgot password"';
export const RESET_EMAIL_SENT = 'Password reset email sent. Check your inbox.';
export const PLEASE_LOG_IN = 'Please log in first';
export const ADDRESS_EMPTY = 'Please enter an address';
export const ADDRESS_NOT_FOUND = 'Address not found. Please check the address and try again.';
/** The quick search's refusal of a category too generic to search: only this 400 opens the category prompt. */
export const CATEGORY_TOO_GENERIC =
  'Please enter a more specific category (for example "dentist" or "plumber").';
/** Set category, offered only for a missing or 'Business' category (docs/PRODUCT.md, "Categories"). */
export const CATEGORY_REQUIRED = 'Please enter a category.';
export const CATEGORY_TOO_LONG = 'A category can be at most 60 characters long.';
export const CATEGORY_CHARACTERS =
  "A category can hold letters, digits, spaces and & ' - , . / ( ) + only, and starts with a letter or digit.";
export const CATEGORY_ALREADY_SET = 'Only admins can change a category that is already set';
