// Prints each test suite's wall time from vitest JSON reports: `node scripts/suite-times.mjs LABEL=FILE ...`.
// The project of a test file is told by its folder, as vitest.config.ts assigns them.
import { existsSync, readFileSync } from 'node:fs';

const projectOf = (file) =>
  file.includes('/test/browser/') ? 'browser' : file.includes('/test/server/') ? 'db' : 'unit';
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

for (const pair of process.argv.slice(2)) {
  const [label, file] = pair.split('=');
  if (!file || !existsSync(file)) {
    console.log(`${label}: no report`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const byProject = new Map();
  for (const result of report.testResults ?? []) {
    const project = projectOf(result.name);
    const entry = byProject.get(project) ?? { start: Infinity, end: 0, files: [], tests: 0 };
    entry.start = Math.min(entry.start, result.startTime);
    entry.end = Math.max(entry.end, result.endTime);
    entry.tests += result.assertionResults?.length ?? 0;
    entry.files.push({
      name: result.name.replace(`${process.cwd()}/`, ''),
      ms: result.endTime - result.startTime,
    });
    byProject.set(project, entry);
  }
  for (const [project, { start, end, files, tests }] of byProject) {
    const slowest = files
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((f) => `${f.name} ${seconds(f.ms)}`)
      .join(', ');
    console.log(
      `${label} ${project}: ${seconds(end - start)} from its first file's start to its last's end, ${files.length} files, ${tests} tests; slowest: ${slowest}`,
    );
  }
}
