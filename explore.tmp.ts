import { getBrandIndex } from './src/core/scoring/nsi';
import { intrinsicScore, buildMarketReference, quantileOf, displayScore } from './src/core/scoring';
import { toAnalysisInput } from './src/core/prospect';
import { ALL_PLACE_TYPES } from './src/core/categories';
import { matchesTypes } from './src/server/places/provider';
import { loadExtract, scanCandidates, busiestPoint } from './test/helpers/extract-scan';
import { dedupe } from './src/core/dedup';
import { normalizeName } from './src/core/dedup';
const bi = getBrandIndex('us');
const variants: [number, number, number][] = [[.6,1,0],[.7,1,100],[.6,1,100],[.5,1,100],[.6,1,50],[.5,1,50],[.6,1,150],[.7,1,150]];
const rows: Record<string,string[]> = {};
for (const f of ['sf-downtown','baltimore','monaco-2021']) {
  const all = await loadExtract(`/work/shared/data/osm/${f}.osm.pbf`);
  const kinds = all.filter(b=>matchesTypes(b, ALL_PLACE_TYPES));
  const xs = kinds.map(b=>intrinsicScore(toAnalysisInput(b,0),{brandIndex:bi})).filter((x):x is number=>x!==null);
  const ref = buildMarketReference(kinds.map(b=>toAnalysisInput(b,0)),'local',{brandIndex:bi})!;
  const q=ref.quantiles; const best=q[200]!, lo=q[0]!;
  const pts = f==='sf-downtown'?[{lat:37.7879,lng:-122.4066},busiestPoint(all)]:[busiestPoint(all)];
  const tops = pts.map(c=>{ const seen=new Set<string>(); return scanCandidates(all,c).map(b=>({n:normalizeName(b.name),x:intrinsicScore(toAnalysisInput(b,0),{brandIndex:bi})})).filter(o=>o.x!==null && !seen.has(o.n) && (seen.add(o.n),true)).map(o=>o.x as number).sort((a,b)=>b-a).slice(0,20)});
  for (const [r,p,st] of variants) { const lo2 = q[st]!;
    const fn = (x:number)=> r*quantileOf(ref,x)+(1-r)*Math.pow(Math.min(1,Math.max(0,(x-lo2)/(best-lo2))),p);
    const sc = (x:number)=>displayScore(.84*fn(x)+.06+.015);
    const m = xs.map(sc);
    const g = m.filter(s=>s>70).length/m.length, rd=m.filter(s=>s<=40).length/m.length;
    const k=`r${r} p${p} s${st}`; rows[k] ??= [];
    rows[k].push(`${f.slice(0,5)} g${(g*100).toFixed(0)} r${(rd*100).toFixed(0)} ` + tops.map(t=>{const s=t.map(sc); return `[${s[0]}-${s.at(-1)} d${new Set(s).size}]`}).join(''));
  }
}
for (const [k,v] of Object.entries(rows)) console.log(k.padEnd(10), v.join(' | '));
