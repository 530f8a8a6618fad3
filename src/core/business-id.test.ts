import { describe, expect, it } from 'vitest';
import { normalizeBusinessId } from './business-id';

describe('normalizeBusinessId', () => {
  it('folds the case of OpenStreetMap and Overture ids', () => {
    expect(normalizeBusinessId('OSM:Node/123')).toBe('osm:node/123');
    expect(normalizeBusinessId(' osm:WAY/7 ')).toBe('osm:way/7');
    expect(normalizeBusinessId('Node/123')).toBe('node/123');
    expect(normalizeBusinessId('osm:relation/9')).toBe('osm:relation/9');
    expect(normalizeBusinessId('Overture:08F2A100-D2B6')).toBe('overture:08f2a100-d2b6');
  });

  it('keeps Google place ids and other forms as sent, trimmed', () => {
    expect(normalizeBusinessId('ChIJN1t_tDeuEmsRUsoyG83frY4')).toBe('ChIJN1t_tDeuEmsRUsoyG83frY4');
    expect(normalizeBusinessId(' demo:Dentist:Bright-Smiles ')).toBe('demo:Dentist:Bright-Smiles');
    expect(normalizeBusinessId('osm:node/Abc')).toBe('osm:node/Abc');
    expect(normalizeBusinessId('overture:not-hex!')).toBe('overture:not-hex!');
  });
});
