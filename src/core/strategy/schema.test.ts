import { describe, expect, it } from 'vitest';
import { personalise, REP_NAME_SLOT, type Strategy } from './schema';

const written: Strategy = {
  openingLine: `Hi, this is ${REP_NAME_SLOT}. Is this the owner?`,
  bestTimeToCall: 'Tuesday 9-11 AM',
  keyTalkingPoints: ['Neighbours search on their phones.'],
  objectionHandlers: [{ objection: 'Who is this?', response: `${REP_NAME_SLOT}, from the local ad team.` }],
  valueProposition: 'More customers from nearby.',
  callToAction: 'Fifteen minutes on Thursday?',
  mediaMix: [{ channel: 'CTV', percent: 100, why: 'Reach.' }],
  voicemailScript: `Hi, this is ${REP_NAME_SLOT}. Again, this is ${REP_NAME_SLOT}.`,
};

describe('personalise', () => {
  it("puts the reader's name in every slot, nested ones too, and leaves the rest alone", () => {
    const mine = personalise(written, ' Dana Reyes ');
    expect(mine.openingLine).toBe('Hi, this is Dana Reyes. Is this the owner?');
    expect(mine.objectionHandlers[0]!.response).toBe('Dana Reyes, from the local ad team.');
    expect(mine.voicemailScript).toBe('Hi, this is Dana Reyes. Again, this is Dana Reyes.');
    expect(mine.mediaMix).toEqual(written.mediaMix);
    expect(JSON.stringify(mine)).not.toContain(REP_NAME_SLOT);
    expect(written.openingLine).toContain(REP_NAME_SLOT);
  });

  it('keeps the slot when the reader has no name', () => {
    expect(personalise(written, '  ')).toEqual(written);
    expect(personalise(written, undefined)).toEqual(written);
  });
});
