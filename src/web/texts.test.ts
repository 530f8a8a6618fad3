import { describe, expect, it } from 'vitest';
import { CATEGORY_TOO_GENERIC as SERVER_TOO_GENERIC } from '../server/scans/service';
import { CATEGORY_TOO_GENERIC } from './texts';

describe('texts the web recognises in server answers', () => {
  it('knows the quick search "too generic" refusal word for word (it alone opens the category prompt)', () => {
    expect(CATEGORY_TOO_GENERIC).toBe(SERVER_TOO_GENERIC);
  });
});
