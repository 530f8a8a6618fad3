import { getBrandIndex } from './src/core/scoring/nsi';
import { createScoreFn } from './src/server/scans/analysis';
import { normalizeName } from './src/core/dedup';
import { loadExtract, scanCandidates, rankCandidates, marketReference, busiestPoint } from './test/helpers/extract-scan';
const bi = getBrandIndex('us');
for (const f of ['sf-downtown','monaco-2021','baltimore']) {
const all = await loadExtract(`/work/shared/data/osm/${f}.osm.pbf`);
const ref = marketReference(all, bi)!;
const c = busiestPoint(all);
const seen = new Set<string>();
const rows = rankCandidates(scanCandidates(all, c), c, createScoreFn(()=>bi, ()=>({local: ref}))).filter(r=>{const k=normalizeName(r.name); if(seen.has(k)) return false; seen.add(k); return true;});
console.log('==', f, new Set(rows.slice(0,20).map(r=>r.score)).size);
rows.slice(0,22).forEach(r=>{const b=r.analysis.breakdown; console.log(r.score, b.vertical, (b.intrinsic??0).toFixed(4), b.presence.toFixed(3), b.scale.toFixed(2), b.keywords, r.name, '|', (b.evidence??[]).join(','))});
}
