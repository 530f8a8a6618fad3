// CSV of a dashboard table, written in the browser with the product's CSV rules (src/core/csv.ts: RFC 4180,
// BOM, CRLF, and the formula guard that keeps a spreadsheet from evaluating a cell such as '=HYPERLINK(...)').
import { fileNamePart, recordsToCsv, type CsvColumn } from '../../../core/csv';
import { saveBlob } from '../../http';

export function csvFileName(table: string, from: string, to: string): string {
  return `team_${fileNamePart(table)}_${from}_${to}.csv`;
}

export function downloadCsv<T>(name: string, columns: readonly CsvColumn<T>[], rows: readonly T[]): void {
  saveBlob(new Blob([recordsToCsv(columns, rows)], { type: 'text/csv;charset=utf-8' }), name);
}
