import { NETWORK_ERROR, PLEASE_LOG_IN } from '../../core/messages';
import { ApiError } from '../api';

/** The server's own words for a 4xx; the caller's generic message (`fallback`) for anything else. */
export function userMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return PLEASE_LOG_IN;
    if (error.status === 0) return NETWORK_ERROR;
    if (error.status >= 400 && error.status < 500) return error.message;
  }
  return fallback;
}
