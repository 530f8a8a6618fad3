// The generic fallback strategy, used when the model's answer stays unusable after one repair attempt: an
// opening line, the call time, three talking points, two objection handlers, a value proposition and a
// 15-minute meeting ask. Only the business name and category are woven in; nothing else is assumed.
import { DEFAULT_BEST_TIME_TO_CALL, type Strategy } from './schema';

export interface FallbackInput {
  name?: string;
  category?: string;
}

export function fallbackStrategy(input: FallbackInput = {}): Strategy {
  const name = input.name?.trim() || 'your business';
  const category = input.category?.trim();
  const kind =
    category && category.toLowerCase() !== 'business'
      ? `${category.toLowerCase()} businesses`
      : 'local businesses';
  return {
    openingLine: `Hi, I work with ${kind} in the area on TV, streaming and online advertising, and I had an idea for ${name} I'd like to run by you. Do you have a minute?`,
    bestTimeToCall: DEFAULT_BEST_TIME_TO_CALL,
    keyTalkingPoints: [
      'Streaming TV (CTV) and online video put your business on the biggest screen in the house, targeted to the households and ZIP codes you actually serve.',
      'Search and display ads catch people at the moment they are looking for what you sell, and every click and call can be tracked.',
      'We build the plan around your budget and goals, start small, and report results so you can see what works before spending more.',
    ],
    objectionHandlers: [
      {
        objection: "We don't have the budget for advertising right now.",
        response:
          'Understood. Campaigns can start small and local, aimed only at the neighbourhoods you serve. Let me show you what a modest test looks like and what it would need to return to pay for itself.',
      },
      {
        objection: 'We get enough business from word of mouth.',
        response:
          'Word of mouth is the best sign of a good business. Advertising makes sure the people who hear about you find you first, instead of a competitor who shows up when they search.',
      },
    ],
    valueProposition: `Targeted local TV, streaming and digital advertising that brings ${name} more of the right customers, with results you can measure.`,
    callToAction: `Could we set up a 15-minute meeting this week so I can learn more about ${name} and show you a few ideas?`,
  };
}
