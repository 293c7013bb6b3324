#!/usr/bin/env python3
"""Warp-CFG WCET bounds of every SASS function, per architecture, as a markdown table.

  sass-bounds-table.py DIR [--bin PATH] [--ref sm_61] [--timeout 20] [--jobs 1]
                           [--set KEY=VALUE]... [--save-json OUTDIR] [--json OUT.json]
                           [--exclude REGEX] [--archs sm_61,sm_86]

DIR holds one folder per architecture (DIR/sm_61/, DIR/sm_70/, ...), each with
*.sass files: full `cuobjdump -sass` listings (several `Function :` sections) or
one function per file (../shared/corpus/sass-modern). Every function of every
listing is analysed as a new user would analyse it:

  warpbound analyze FILE --dialect sass --mode warp-cfg --function NAME \
      --no-timings --set cost=unit --format json

with a timeout (default 20 s) and its wall time measured (process start to end).
Functions are matched across architectures by (listing file name, mangled name);
the architecture tag that CUB/Thrust put in their namespaces (CUB_101702_860_NS)
is masked so that library kernels match too.

Output (stdout): one row per function: listing, short demangled name, per
architecture the bound (cycles) or a short error, the ratio to the reference
architecture (default sm_61), and the wall time when it is over 1 s; then a
summary per architecture (functions, bounded, within 2x of the reference, over
2x, analyses over 1 s, timeouts) and the errors grouped by message.

Dependency-free Python 3.11 (c++filt is used for demangling when present).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

FUNC_RE = re.compile(r'^\t\tFunction : (\S+)\s*$', re.M)
ARCH_TAG_RE = re.compile(r'((?:CUB|THRUST)_\d+)_(\d+)_NS')


def default_bin():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), 'target', 'release', 'warpbound')


def match_key(mangled):
    return ARCH_TAG_RE.sub(r'\1_XXX_NS', mangled)


def demangle_all(names):
    names = sorted(set(names))
    if not names or not shutil.which('c++filt'):
        return {n: n for n in names}
    try:
        out = subprocess.run(['c++filt'], input='\n'.join(names) + '\n', capture_output=True,
                             text=True, timeout=30).stdout.split('\n')
    except (OSError, subprocess.SubprocessError):
        return {n: n for n in names}
    return {n: shorten(d) if d else n for n, d in zip(names, out)}


def shorten(d):
    """`void reduce4<int, 256u>(int*, int*, unsigned int)` -> `reduce4<int, 256u>`."""
    d = re.sub(r'^void ', '', d)
    # drop the parameter list: the last top-level parenthesised group
    depth = 0
    cut = None
    for i, c in enumerate(d):
        if c in '<(':
            if c == '(' and depth == 0 and cut is None:
                cut = i
            depth += 1
        elif c in '>)':
            depth -= 1
    if cut is not None:
        d = d[:cut]
    d = re.sub(r'cub::CUB_\d+_\d+_NS::', 'cub::', d)
    if len(d) > 70:
        d = d[:67] + '...'
    return d


def short_error(msg):
    msg = ' '.join(msg.split())
    # keep the first clause: enough to tell the kinds apart
    m = re.match(r'(.{20,}?)(?:[:;]\s|\. |$)', msg)
    s = m.group(1) if m else msg
    return s[:90] + ('...' if len(s) > 90 else '')


def error_kind(msg):
    """An error message with registers, addresses and numbers masked, for grouping."""
    s = short_error(msg)
    s = re.sub(r'0x[0-9a-fA-F]+', '0x#', s)
    s = re.sub(r'\bU?R\d+\b', 'R#', s)
    s = re.sub(r'\b\d+\b', '#', s)
    return s


def analyse(wb, path, func, timeout, sets, save_dir, tag):
    cmd = [wb, 'analyze', path, '--dialect', 'sass', '--mode', 'warp-cfg', '--function', func,
           '--no-timings', '--set', 'cost=unit', '--format', 'json']
    for s in sets:
        cmd += ['--set', s]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {'wcet': None, 'error': 'timeout (%g s)' % timeout, 'kind': 'timeout',
                'time': time.perf_counter() - t0}
    dt = time.perf_counter() - t0
    res = {'wcet': None, 'error': None, 'kind': None, 'time': dt, 'rc': p.returncode}
    try:
        d = json.loads(p.stdout)
    except ValueError:
        err = (p.stderr.strip().splitlines() or ['exit code %d, no output' % p.returncode])[-1]
        if 'panicked' in p.stderr:
            m = re.search(r"panicked at [^\n]*\n([^\n]*)", p.stderr)
            err = 'panic: ' + (m.group(1) if m else err)
        res['error'] = short_error(err)
        res['kind'] = error_kind(err)
        return res
    if save_dir:
        with open(os.path.join(save_dir, tag + '.json'), 'w') as f:
            f.write(p.stdout)
    w = d.get('wcet') or {}
    if isinstance(w, dict) and w.get('cycles') is not None:
        res['wcet'] = w['cycles']
    else:
        errs = [x.get('message', '') for x in d.get('diagnostics', [])
                if x.get('severity') == 'error']
        msg = errs[0] if errs else 'no WCET (exit code %d)' % p.returncode
        res['error'] = short_error(msg)
        res['kind'] = error_kind(msg)
    wc = d.get('warp-cfg') or {}
    res['states'] = wc.get('states')
    res['loops'] = len(wc.get('loops') or [])
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('dir')
    ap.add_argument('--bin', default=os.environ.get('WARPBOUND', default_bin()))
    ap.add_argument('--ref', default='sm_61', help='reference architecture for ratios')
    ap.add_argument('--archs', help='comma-separated (default: every DIR/sm_* folder)')
    ap.add_argument('--timeout', type=float, default=20.0)
    ap.add_argument('--jobs', type=int, default=1,
                    help='parallel analyses (default 1, so wall times are not inflated)')
    ap.add_argument('--set', action='append', default=[], help='extra --set KEY=VALUE')
    ap.add_argument('--slow', type=float, default=1.0, help='wall time counted as slow (s)')
    ap.add_argument('--save-json', help='write every JSON report to this folder')
    ap.add_argument('--json', help='write the raw results to this file')
    ap.add_argument('--exclude', help='skip listings whose file name (no .sass) matches this regex')
    a = ap.parse_args()

    archs = a.archs.split(',') if a.archs else sorted(
        d for d in os.listdir(a.dir) if re.fullmatch(r'sm_\d+a?', d)
        and os.path.isdir(os.path.join(a.dir, d)))
    if not archs:
        sys.exit('no sm_* folders in ' + a.dir)
    if a.save_json:
        os.makedirs(a.save_json, exist_ok=True)

    # (listing, key) -> {arch: (path, mangled)}
    funcs = collections.OrderedDict()
    for arch in archs:
        folder = os.path.join(a.dir, arch)
        for fn in sorted(os.listdir(folder)):
            if not fn.endswith('.sass'):
                continue
            path = os.path.join(folder, fn)
            with open(path, errors='replace') as f:
                names = FUNC_RE.findall(f.read())
            listing = fn[:-5]
            if a.exclude and re.search(a.exclude, listing):
                continue
            for m in names:
                funcs.setdefault((listing, match_key(m)), {})[arch] = (path, m)

    jobs = [(k, arch, p, m) for k, per in funcs.items() for arch, (p, m) in per.items()]
    results = {}

    def run(job):
        k, arch, p, m = job
        tag = '%s__%s__%s' % (arch, k[0], m[:150])
        return (k, arch), analyse(a.bin, p, m, a.timeout, a.set, a.save_json, tag)

    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for key, r in ex.map(run, jobs):
            results[key] = r
            done += 1
            if done % 50 == 0:
                print('%d/%d analyses' % (done, len(jobs)), file=sys.stderr)

    short = demangle_all(m for per in funcs.values() for (_, m) in per.values())
    ref = a.ref if a.ref in archs else None
    others = [x for x in archs if x != ref]

    head = ['listing', 'function']
    for arch in archs:
        head.append(arch)
        if ref and arch != ref:
            head.append('/%s' % ref[3:])
    head.append('> %gs' % a.slow)
    print('Warp-CFG bounds, `--set cost=unit`%s, binary `%s`, %s.\n' % (
        ''.join(', `--set %s`' % s for s in a.set), a.bin, time.strftime('%Y-%m-%d')))
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * 2 + '---:|' * (len(head) - 3) + '---|')
    stats = {arch: collections.Counter() for arch in archs}
    kinds = {arch: collections.Counter() for arch in archs}
    ratios = []
    for k, per in funcs.items():
        anym = next(iter(per.values()))[1]
        row = [k[0], '`%s`' % short.get(anym, anym).replace('|', '\\|')]
        rr = results.get((k, ref)) if ref else None
        rw = rr['wcet'] if rr else None
        slow = []
        for arch in archs:
            r = results.get((k, arch))
            st = stats[arch]
            if r is None:
                row.append('—')
                if ref and arch != ref:
                    row.append('')
                continue
            st['functions'] += 1
            if r['time'] > a.slow:
                st['slow'] += 1
                slow.append('%s %.1fs' % (arch[3:], r['time']))
            st['max_time'] = max(st['max_time'], r['time'])
            if r['kind'] == 'timeout':
                st['timeout'] += 1
            if r['wcet'] is not None:
                st['bounded'] += 1
                row.append(str(r['wcet']))
            else:
                kinds[arch][r['kind']] += 1
                row.append('ERR: ' + r['error'].replace('|', '\\|'))
            if ref and arch != ref:
                if r['wcet'] is not None and rw:
                    q = r['wcet'] / rw
                    ratios.append(q)
                    row.append('%.2f' % q + (' **>2×**' if q > 2 else ' *<½*' if q < 0.5 else ''))
                    st['within2' if q <= 2 else 'over2'] += 1
                    if q < 0.5:
                        st['under_half'] += 1
                else:
                    row.append('')
                    if r['wcet'] is not None:
                        st['ref_unbounded'] += 1
        row.append(', '.join(slow))
        print('| ' + ' | '.join(row) + ' |')

    print('\n## Summary\n')
    print('`bounded`: analyses with a WCET; `≤2×`: bound within 2× of the same function\'s %s '
          'bound (both bounded, ratio ≤ 2); `>2×`: over; `<½`: under half (out of a two-sided '
          '"within 2×"; `[½,2]` = `≤2×` − `<½`); `ref✗`: bounded here but not on %s; '
          '`> %gs`: wall time over %g s (process start to end).\n' % (ref, ref, a.slow, a.slow))
    print('| arch | functions | bounded | ≤2× of %s | >2× | <½ | [½,2] | ref✗ | > %gs | timeouts '
          '| max time (s) |' % (ref, a.slow))
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for arch in archs:
        st = stats[arch]
        n = st['functions']
        pct = lambda x: '%d (%.0f %%)' % (x, 100.0 * x / n) if n else '0'
        cmp_ = (lambda x: pct(x)) if ref and arch != ref else (lambda x: '')
        print('| %s | %d | %s | %s | %s | %s | %s | %s | %d | %d | %.2f |' % (
            arch, n, pct(st['bounded']), cmp_(st['within2']), cmp_(st['over2']),
            cmp_(st['under_half']), cmp_(st['within2'] - st['under_half']),
            cmp_(st['ref_unbounded']), st['slow'], st['timeout'], st['max_time']))

    print('\n## Errors by kind\n')
    allk = collections.Counter()
    for arch in archs:
        allk.update(kinds[arch])
    if allk:
        print('| error | ' + ' | '.join(archs) + ' |')
        print('|---|' + '---:|' * len(archs))
        for kd, _ in allk.most_common():
            print('| %s | %s |' % (kd.replace('|', '\\|'),
                                   ' | '.join(str(kinds[x][kd]) for x in archs)))
    else:
        print('(none)')

    if a.json:
        out = []
        for (k, arch), r in results.items():
            path, m = funcs[k][arch]
            out.append(dict(r, listing=k[0], key=k[1], mangled=m, arch=arch, path=path,
                            short=short.get(m, m)))
        with open(a.json, 'w') as f:
            json.dump(out, f, indent=1)


if __name__ == '__main__':
    main()
