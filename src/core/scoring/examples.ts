// The worked examples of docs/SCORING.md, one per vertical. analyze.test.ts pins their scores, so the document
// and the code cannot drift apart silently.
import type { AnalysisInput } from './analyze';

export const WORKED_EXAMPLES: ReadonlyArray<{ vertical: string; input: AnalysisInput }> = [
  {
    vertical: 'auto_dealer',
    input: { name: 'Hendrick Toyota Auto Group', types: ['car_dealer'], website: 'https://example.com', phone: '555-0100', rating: 4.6, reviewCount: 1200, distance: 0.8 },
  },
  {
    vertical: 'injury_law',
    input: { name: 'Smith & Jones Injury Attorneys', types: ['lawyer'], website: 'https://example.com', phone: '555-0101', rating: 4.9, reviewCount: 300, distance: 1.5 },
  },
  {
    vertical: 'hvac',
    input: { name: 'Comfort Heating & Air', category: 'Business', website: 'https://example.com', phone: '555-0102', rating: 4.8, reviewCount: 410, distance: 2.1 },
  },
  {
    vertical: 'plumbing',
    input: { name: 'Ace Plumbing', types: ['plumber'], phone: '555-0103', rating: 4.3, reviewCount: 60, distance: 1.0 },
  },
  {
    vertical: 'roofing',
    input: { name: 'Summit Roofing', types: ['roofing_contractor'], website: 'https://example.com', phone: '555-0104', rating: 4.7, reviewCount: 150 },
  },
  {
    vertical: 'dental',
    input: { name: 'Bright Smiles Dental', types: ['dentist'], website: 'https://example.com', phone: '555-0105', rating: 4.5, reviewCount: 100, distance: 1.0 },
  },
  {
    vertical: 'orthodontics',
    input: { name: 'Bay Orthodontics', types: ['dentist'], website: 'https://example.com', phone: '555-0106', rating: 4.9, reviewCount: 220, distance: 0.4 },
  },
  {
    vertical: 'medical',
    input: { name: 'Union Square Medical Clinic', types: ['doctor'], website: 'https://example.com', phone: '555-0107', rating: 4.1, reviewCount: 80, distance: 0.6 },
  },
  {
    vertical: 'furniture',
    input: { name: 'Oak & Linen Furniture', types: ['furniture_store'], website: 'https://example.com', phone: '555-0108', rating: 4.4, reviewCount: 95, distance: 2.6 },
  },
  {
    vertical: 'insurance',
    input: { name: 'Garcia Insurance Agency', types: ['insurance_agency'], website: 'https://example.com', phone: '555-0109', rating: 5.0, reviewCount: 40, distance: 0.9 },
  },
  {
    vertical: 'fitness',
    input: { name: 'Iron Works Gym', types: ['gym'], website: 'https://example.com', phone: '555-0110', rating: 4.6, reviewCount: 180, distance: 1.3 },
  },
  {
    vertical: 'restaurant',
    input: { name: 'Chez Nous', types: ['restaurant'], website: 'https://example.com', phone: '555-0111', rating: 4.4, reviewCount: 350, distance: 0.5 },
  },
  {
    vertical: 'real_estate',
    input: { name: 'Golden Gate Realty', types: ['real_estate_agency'], website: 'https://example.com', phone: '555-0112', rating: 4.8, reviewCount: 70, distance: 1.1 },
  },
  {
    vertical: 'bar',
    input: { name: 'Local Tap', types: ['bar'], rating: 4.2, reviewCount: 90, distance: 2.5 },
  },
  {
    vertical: 'hotel',
    input: { name: 'The Cartwright', types: ['lodging'], website: 'https://example.com', phone: '555-0113', rating: 4.0, reviewCount: 900, distance: 0.2 },
  },
  {
    vertical: 'qsr',
    input: { name: "Tony's Slice", types: ['meal_takeaway'], phone: '555-0114', rating: 4.5, reviewCount: 300, distance: 0.7 },
  },
  {
    vertical: 'other',
    input: { name: 'Paper Moon Stationery', types: ['store'], category: 'Stationery', website: 'https://example.com', rating: 4.7, reviewCount: 45, distance: 0.9 },
  },
]; // prettier-ignore
