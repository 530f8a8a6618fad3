// The model-written reasoning: what the model is told, and which answers are refused.
import { describe, expect, it } from 'vitest';
import {
  buildReasoningPrompt,
  parseReasoningAnswer,
  REASONING_SYSTEM_PROMPT,
  type ReasoningSubject,
} from '../../src/server/ai/reasoning';

const DENTIST: ReasoningSubject = {
  name: 'Union Square Dental Group',
  category: 'Dental',
  types: ['dentist'],
  rating: 4.7,
  reviews: 231,
  hasWebsite: true,
  hasPhone: true,
  city: 'San Francisco',
  state: 'CA',
  score: 74,
  vertical: 'dental',
  rule: null,
  fit: 0.84,
  presence: 0.62,
  propensity: { ctv: 0.85, olv: 0.8, display: 0.75, sem: 0.95 },
  keywordMatches: ['dentalMedical'],
  brand: null,
  dealerGroup: false,
  recommendations: ['Linear TV', 'Streaming TV/CTV'],
};

describe('reasoning prompt', () => {
  it('gives the facts and the breakdown in words, and no score or distance to repeat', () => {
    const prompt = buildReasoningPrompt(DENTIST);
    for (const line of [
      '- Business: Union Square Dental Group',
      '- Category: Dental (place types: dentist)',
      '- Town: San Francisco, CA',
      '- Scored as: Dental business, a good prospect',
      '- Channel fit of its kind of business: strong (CTV strong, online video strong, display strong, search strong)',
      '- Online presence: strong; has a website, has a phone number, rated 4.7 stars from 231 reviews',
      '- Name signals: dental/medical',
      '- Recommended ad solutions: Linear TV, Streaming TV/CTV',
    ]) {
      expect(prompt).toContain(line);
    }
    expect(prompt).not.toContain('74');
    expect(prompt).not.toMatch(/mile|\/100|%/);
    expect(REASONING_SYSTEM_PROMPT).toContain('Never state a numeric score, a percentage or a distance');
  });

  it('names the rule that decided a score outright', () => {
    const prompt = buildReasoningPrompt({ ...DENTIST, rule: 'nationalChain', score: 0, brand: 'Big Smiles' });
    expect(prompt).toContain('- Decided by a rule: a national chain');
    expect(prompt).toContain('a poor prospect');
    expect(prompt).toContain('- Brand: Big Smiles');
  });
});

describe('reasoning answers', () => {
  const text =
    'A busy neighbourhood practice with a strong online presence; patients research dentists online.';

  it('takes the paragraph from JSON (fenced or not), with whitespace folded', () => {
    expect(parseReasoningAnswer(JSON.stringify({ reasoning: text }))).toEqual({ ok: true, reasoning: text });
    expect(
      parseReasoningAnswer('```json\n{"reasoning": "A busy\\n practice   nearby with 4.7 stars."}\n```'),
    ).toEqual({ ok: true, reasoning: 'A busy practice nearby with 4.7 stars.' });
  });

  it('refuses a score, a percentage, a distance, prose without JSON, and too short or too long texts', () => {
    for (const bad of [
      `Scores 74/100. ${text}`,
      `${text} Score of 74.`,
      `${text} Channel fit is 84%.`,
      `${text} Only 0.3 miles away.`,
      `${text} About 2 km from you.`,
      `${text} Two blocks away: 2 blocks.`,
    ]) {
      const parsed = parseReasoningAnswer(JSON.stringify({ reasoning: bad }));
      expect(parsed, bad).toEqual({ ok: false, error: 'reasoning: states a score, percentage or distance' });
    }
    expect(parseReasoningAnswer(text).ok).toBe(false);
    expect(parseReasoningAnswer('{"reasoning": "Good."}').ok).toBe(false);
    expect(parseReasoningAnswer(JSON.stringify({ reasoning: 'x '.repeat(500) })).ok).toBe(false);
    expect(parseReasoningAnswer('{"text": "no reasoning key here at all, sorry"}').ok).toBe(false);
  });
});
