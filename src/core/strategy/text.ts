// The strategy as plain text, for the modal's "copy the whole strategy" action and for e-mailing it to
// oneself. Sections in the modal's order, with the modal's headings; empty sections are left out, as the
// modal leaves them out.
import type { Strategy } from './schema';

/** The modal's section headings, in its order (docs/PRODUCT.md, "Appointment strategy"). */
export const SECTION_TITLES = {
  openingLine: 'Opening line',
  bestTimeToCall: 'Best time to call',
  keyTalkingPoints: 'Key talking points',
  objectionHandlers: 'Objection handlers',
  valueProposition: 'Value proposition',
  callToAction: 'Call to action',
  hookLines: 'Hook lines',
  competitiveAngles: 'Competitive angles',
  verticalInsights: 'Vertical insights',
  discoveryQuestions: 'Discovery questions',
  mediaMix: 'Media mix',
  plan30Day: '30-day plan',
  introEmail: 'Intro e-mail',
  followUpEmail: 'Follow-up e-mail',
  voicemailScript: 'Voicemail script',
} as const satisfies Record<keyof Strategy, string>;

const bullets = (items: readonly string[]) => items.map((i) => `- ${i}`).join('\n');
const numbered = (items: readonly string[]) => items.map((i, n) => `${n + 1}. ${i}`).join('\n');

function body(strategy: Strategy, key: keyof Strategy): string {
  switch (key) {
    case 'openingLine':
    case 'bestTimeToCall':
    case 'valueProposition':
    case 'callToAction':
    case 'introEmail':
    case 'followUpEmail':
    case 'voicemailScript':
      return strategy[key]?.trim() ?? '';
    case 'keyTalkingPoints':
    case 'hookLines':
    case 'competitiveAngles':
    case 'verticalInsights':
    case 'discoveryQuestions':
      return bullets(strategy[key] ?? []);
    case 'plan30Day':
      return numbered(strategy.plan30Day ?? []);
    case 'objectionHandlers':
      return strategy.objectionHandlers.map((h) => `- "${h.objection}"\n  ${h.response}`).join('\n');
    case 'mediaMix':
      return (strategy.mediaMix ?? [])
        .map((r) => `- ${r.channel}: ${r.percent}%${r.why ? ` (${r.why})` : ''}`)
        .join('\n');
  }
}

/** The whole strategy as text, headed with the business name when given. */
export function strategyAsText(strategy: Strategy, businessName?: string): string {
  const parts: string[] = [];
  if (businessName?.trim()) parts.push(`Appointment strategy: ${businessName.trim()}`);
  for (const key of Object.keys(SECTION_TITLES) as (keyof Strategy)[]) {
    const text = body(strategy, key);
    if (text !== '') parts.push(`${SECTION_TITLES[key]}\n${text}`);
  }
  return `${parts.join('\n\n')}\n`;
}
