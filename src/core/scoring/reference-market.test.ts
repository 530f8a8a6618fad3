// The reference market shipped with the model is the one the model makes of the reference extracts: a change of the
// model that moves intrinsic scores fails here until `npm run bench -- reference` writes it again.
import { expect, it } from 'vitest';
import { describeWithOsm } from '../../../test/helpers/osm-data';
import { REFERENCE_EXTRACTS, referenceMarket } from '../../../test/helpers/reference-market';
import { REFERENCE_MARKET } from './reference-market';

describeWithOsm(REFERENCE_EXTRACTS, 'the reference market', () => {
  it('is current: rebuilt from the reference extracts, the same quantiles', async () => {
    const rebuilt = await referenceMarket();
    expect(REFERENCE_MARKET.population).toBe(rebuilt.population);
    expect(REFERENCE_MARKET.quantiles).toEqual(rebuilt.quantiles);
  });
});
