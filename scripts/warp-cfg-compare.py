#!/usr/bin/env python3
"""Compare the warp-level CFGs of one SASS function across architectures (triage aid).

  warp-cfg-compare.py [--bin PATH] [--set KEY=VALUE]... FUNCTION FILE [FILE...]

Runs `warpbound analyze FILE --dialect sass --mode warp-cfg --function FUNCTION
--no-timings --set cost=unit --format json` on every FILE (e.g. the sm_61 and the
sm_86 listing) and prints, per file: the WCET, the number of states, the loops
grouped by header address (how many copies the warp CFG holds, each with its bound
and where the bound came from, irreducible or not), the blocks that appear in
several stack contexts, and the largest contributions of the IPET breakdown summed
per block address. Dependency-free Python 3.11.
"""
import argparse
import collections
import json
import os
import subprocess


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.environ.get(
        'WARPBOUND', os.path.join(os.path.dirname(here), 'target', 'release', 'warpbound')))
    ap.add_argument('--set', action='append', default=[])
    ap.add_argument('--top', type=int, default=8)
    ap.add_argument('function')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    for f in a.files:
        cmd = [a.bin, 'analyze', f, '--dialect', 'sass', '--mode', 'warp-cfg', '--function',
               a.function, '--no-timings', '--set', 'cost=unit', '--format', 'json']
        for s in a.set:
            cmd += ['--set', s]
        p = subprocess.run(cmd, capture_output=True, text=True)
        print('== %s' % f)
        try:
            d = json.loads(p.stdout)
        except ValueError:
            print('   no JSON:', p.stderr.strip()[-300:])
            continue
        errs = [x['message'] for x in d.get('diagnostics', []) if x.get('severity') == 'error']
        w = d.get('wcet') or {}
        wc = d.get('warp-cfg') or {}
        nodes = {n['id']: n for n in (d.get('cfg') or {}).get('nodes', [])}
        print('   WCET %s, states %s, divergence edges %s, ILP vars %s, B&B nodes %s, LP %s'
              % (w.get('cycles'), wc.get('states'), wc.get('divergence_edges'),
                 wc.get('ilp_variables'), wc.get('branch_and_bound_nodes'), wc.get('lp_bound')))
        for e in errs[:3]:
            print('   error:', e[:200])
        loops = collections.defaultdict(list)
        for lp in wc.get('loops') or []:
            loops[lp['address']].append(lp)
        for addr in sorted(loops):
            ls = loops[addr]
            desc = ', '.join('%s%s%s[%s]' % (
                lp['bound'], '' if lp['bound_from'] == 'default' else '(' + lp['bound_from'] + ')',
                ' irreducible' if lp.get('irreducible') else '',
                nodes.get(lp['header'], {}).get('context', '?') or '-') for lp in ls)
            print('   loop 0x%04x: %d cop%s, depth %s; bound[context]: %s' % (
                addr, len(ls), 'y' if len(ls) == 1 else 'ies',
                '/'.join(sorted({str(lp['depth']) for lp in ls})), desc))
        per_block = collections.defaultdict(list)
        for n in nodes.values():
            if n.get('kind') == 'block' and n.get('reachable', True):
                per_block[n['start']].append(n)
        multi = sorted((len(v), k) for k, v in per_block.items() if len(v) > 1)
        if multi:
            print('   blocks in several contexts: ' + ', '.join(
                '0x%04x×%d' % (k, c) for c, k in sorted(multi, key=lambda x: -x[0])[:12]))
        tot = collections.Counter()
        cnt = collections.defaultdict(list)
        for b in wc.get('breakdown') or []:
            tot[b['address']] += b['total']
            cnt[b['address']].append(b['count'])
        s = sum(tot.values())
        print('   breakdown (total %d) top: ' % s + ', '.join(
            '0x%04x %d (counts %s)' % (k, v, '+'.join(map(str, cnt[k])))
            for k, v in tot.most_common(a.top)))


if __name__ == '__main__':
    main()
