#!/usr/bin/env python3
import json,subprocess,glob,re,os
# The table of docs/ptx-divergence-crosscheck.md: per sass-modern/sm_86 kernel, guarded
# branches and those found divergent by the PTX and by the SASS warp-cfg analyses.
HERE = os.path.dirname(os.path.abspath(__file__))
W = os.path.join(HERE, '..', 'target', 'release', 'warpbound')
CORPUS = os.path.join(HERE, '..', '..', 'shared', 'corpus')
rows=[]
for s in sorted(glob.glob('' + CORPUS + '/sass-modern/sm_86/*.sass')):
    txt=open(s).read()
    m=re.search(r'Function : (\S+)',txt)
    if not m: continue
    name=m.group(1)
    ptx=None
    for p in glob.glob('' + CORPUS + '/ptx-modern/*.ptx'):
        if re.search(r'\.entry\s+'+re.escape(name)+r'\s*\(',open(p).read()): ptx=p;break
    if not ptx: rows.append((os.path.basename(s),name,'-','-','-','-','no PTX entry of that name'));continue
    rp=json.loads(subprocess.run([W,'analyze','--dialect','ptx','--mode','warp-cfg','--function',name,'--no-timings',ptx],capture_output=True,text=True).stdout)
    rs=json.loads(subprocess.run([W,'analyze','--dialect','sass','--mode','warp-cfg','--function',name,'--no-timings',s],capture_output=True,text=True).stdout)
    # PTX: guarded branches total, divergent
    kp=rp.get('kernel') or {}
    pb=sum(1 for i in kp.get('instructions',[]) if re.match(r'@!?%\w+\s+bra',i.get('text','').strip()) and '.uni' not in i.get('text',''))
    pd=len((rp.get('warp-cfg') or rp.get('warp_cfg') or {}).get('divergent_branches',[]))
    # SASS: guarded BRA total, and those with a divergence edge leaving their block
    ks=rs.get('kernel') or {}
    sb=sum(1 for i in ks.get('instructions',[]) if re.match(r'@!?U?P\w+\s+BRA',i.get('text','').strip()) and 'U' != i.get('text','').strip()[1:2])
    g=rs.get('cfg') or {}
    nodes=g.get('nodes',[])
    srcblocks=set()
    for e in g.get('edges',[]):
        if e['kind']=='divergence':
            n=nodes[e['from']]
            last=n.get('last')
            ins=ks.get('instructions',[])
            if last is not None and last<len(ins) and 'BRA' in ins[last].get('text','') and ins[last].get('text','').strip().startswith('@'):
                srcblocks.add(n.get('block'))
    sd=len(srcblocks) if rs.get('cfg') and rs['cfg'].get('kind')=='warp' else '-'
    err=[d['message'][:60] for d in rs.get('diagnostics',[]) if d['severity']=='error']
    rows.append((os.path.basename(s),name[:40],pb,pd,sb,sd,'; '.join(err)[:70]))
print('| SASS file (sm_86) | PTX guarded `bra` | PTX divergent | SASS guarded `BRA` | SASS with a divergence edge | note |')
print('|---|---|---|---|---|---|')
for r in rows: print('| %s | %s | %s | %s | %s | %s |'%(r[0],r[2],r[3],r[4],r[5],r[6]))
