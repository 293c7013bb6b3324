#!/usr/bin/env python3
"""Every mode over every function of a directory of real kernels, as a new user runs them.

  sweep.py DIR [--bin PATH] [--jobs 2] [--timeout 60] [--only sass,dump,ptx,gcn]
               [--archs sm_61,sm_86] [--json OUT.json] [--filter REGEX]

DIR holds (any part may be missing):
  DIR/sass/<arch>/*.sass       `cuobjdump -sass` listings (one or more `Function :` sections)
  DIR/dump/<arch>/*.nvdisasm   `nvdisasm k.cubin` of the same cubins (same base names)
  DIR/ptx/*.ptx                `nvcc -ptx` modules
  DIR/gcn/*.s                  GCN3 assembly (clang/hipcc `-S`)

Each function is analysed with default parameters (nothing set but the mode), once per row:

  SASS  warp-cfg                                      bounded?
        simulate                                      runs? (automatic launch)
        warp-cfg simulate=true loop_bounds=observed   observed <= bound (`simulation.holds`)
        block simulate=true                           the block's runs within its bound
        launch simulate=true                          the grid's run on the GPU's SMs within
                                                      the launch bound
        thread-cfg, makespan                          (timed)
  dump  warp-cfg on the nvdisasm text                 same bound as the cuobjdump listing?
  PTX   warp-cfg, rr, simulate, rr simulate=true      bounded / runs / observed <= bound
        thread-cfg, makespan                          (timed)
  GCN3  pws, simulate, pws simulate=true              bounded / runs / observed <= bound
        thread-cfg, makespan                          (timed)

Every analysis is one `warpbound analyze` process; its CPU time (user + system, from
`wait4`, so a busy machine does not inflate it) over 2 s counts as slow (a budget error
within 2 s counts as an answer). Wall times are in the JSON too. Output: a markdown
summary per set and arch, then the failures grouped by their first error message.

Dependency-free Python 3.11.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

SASS_FUNC = re.compile(r'^\s*Function : (\S+)\s*$', re.M)
DUMP_FUNC = re.compile(r'^\s*\.section\s+\.text\.([^,\s]+)', re.M)
PTX_FUNC = re.compile(r'^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)', re.M)
GCN_FUNC = re.compile(r'^\s*\.amdhsa_kernel\s+(\S+)', re.M)
SLOW_S = 2.0


def default_bin():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), 'target', 'release', 'warpbound')


def run(binary, path, dialect, function, mode, sets, timeout):
    cmd = [binary, 'analyze', path, '--dialect', dialect, '--mode', mode, '--no-timings']
    if function:
        cmd += ['--function', function]
    for s in sets:
        cmd += ['--set', s]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return {'error': f'timeout after {timeout} s', 'secs': timeout, 'wall': timeout}
            time.sleep(0.01)
        wall = time.monotonic() - t0
        # CPU time of this process alone: what the analysis costs, whatever else the
        # machine is doing (the wall time is kept too).
        secs = usage.ru_utime + usage.ru_stime
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors='replace')
        stderr = err.read().decode(errors='replace')
    try:
        r = json.loads(stdout)
    except json.JSONDecodeError:
        tail = (stderr.strip().splitlines() or ['no output'])[-1]
        return {'error': f'exit {os.waitstatus_to_exitcode(status)}: {tail[:160]}',
                'secs': secs, 'wall': wall}
    errors = [d['message'] for d in r.get('diagnostics', []) if d.get('severity') == 'error']
    sim = r.get('simulation') or {}
    out = {
        'secs': secs,
        'wall': wall,
        'wcet': (r.get('wcet') or {}).get('cycles'),
        'cycles': sim.get('cycles'),
        'holds': sim.get('holds'),
        'bound': (sim.get('bound') or {}).get('cycles'),
        'warnings': [d['message'] for d in r.get('diagnostics', [])
                     if d.get('severity') == 'warning'],
    }
    if errors:
        out['error'] = errors[0]
    return out


def functions(path, pattern):
    with open(path, errors='replace') as f:
        text = f.read()
    seen = []
    for m in pattern.finditer(text):
        if m.group(1) not in seen:
            seen.append(m.group(1))
    return seen


def jobs_for(root, only, archs, flt):
    """(set, arch, file, dialect, function, [(label, mode, sets)]) for every function."""
    out = []
    sass_checks = [
        ('wcet', 'warp-cfg', []),
        ('sim', 'simulate', []),
        ('obs', 'warp-cfg', ['simulate=true', 'loop_bounds=observed']),
        ('block', 'block', ['simulate=true']),
        ('launch', 'launch', ['simulate=true']),
        ('cfg', 'thread-cfg', []),
        ('mk', 'makespan', []),
    ]
    if 'sass' in only:
        for arch in sorted(os.listdir(os.path.join(root, 'sass'))) if os.path.isdir(
                os.path.join(root, 'sass')) else []:
            if archs and arch not in archs:
                continue
            d = os.path.join(root, 'sass', arch)
            for name in sorted(os.listdir(d)):
                p = os.path.join(d, name)
                for fn in functions(p, SASS_FUNC):
                    if flt and not re.search(flt, f'{name} {fn}'):
                        continue
                    out.append(('sass', arch, p, 'sass', fn, sass_checks))
    if 'dump' in only and os.path.isdir(os.path.join(root, 'dump')):
        for arch in sorted(os.listdir(os.path.join(root, 'dump'))):
            if archs and arch not in archs:
                continue
            d = os.path.join(root, 'dump', arch)
            for name in sorted(os.listdir(d)):
                p = os.path.join(d, name)
                for fn in functions(p, DUMP_FUNC):
                    if flt and not re.search(flt, f'{name} {fn}'):
                        continue
                    out.append(('dump', arch, p, 'sass', fn, [('wcet', 'warp-cfg', [])]))
    if 'ptx' in only and os.path.isdir(os.path.join(root, 'ptx')):
        d = os.path.join(root, 'ptx')
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            for fn in functions(p, PTX_FUNC):
                if flt and not re.search(flt, f'{name} {fn}'):
                    continue
                out.append(('ptx', 'ptx', p, 'ptx', fn, [
                    ('wcet', 'warp-cfg', []), ('rr', 'rr', []), ('sim', 'simulate', []),
                    ('obs', 'rr', ['simulate=true']), ('cfg', 'thread-cfg', []),
                    ('mk', 'makespan', [])]))
    if 'gcn' in only and os.path.isdir(os.path.join(root, 'gcn')):
        d = os.path.join(root, 'gcn')
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            for fn in functions(p, GCN_FUNC):
                if flt and not re.search(flt, f'{name} {fn}'):
                    continue
                out.append(('gcn', 'gcn3', p, 'gcn', fn, [
                    ('wcet', 'pws', []), ('sim', 'simulate', []),
                    ('obs', 'pws', ['simulate=true']), ('cfg', 'thread-cfg', []),
                    ('mk', 'makespan', [])]))
    return out


def dedupe(jobs):
    """One job per (set, arch, benchmark directory, function): a kernel compiled from
    several files of one benchmark (`main.cu` including `kernel.cu`) counts once."""
    seen = set()
    out = []
    for j in jobs:
        kind, arch, path, _, fn, _ = j
        # GCN3 files of the PWS solver hold different kernels of one name: keep each file.
        bench = path if kind == 'gcn' else os.path.basename(path).rsplit('__', 1)[0]
        key = (kind, arch, bench, fn)
        if key in seen:
            continue
        seen.add(key)
        out.append(j)
    return out


def work(binary, timeout, labels, job):
    kind, arch, path, dialect, fn, checks = job
    res = {}
    for label, mode, sets in checks:
        if labels and label not in labels:
            continue
        res[label] = run(binary, path, dialect, fn, mode, sets, timeout)
    return {'set': kind, 'arch': arch, 'file': os.path.basename(path), 'function': fn,
            'results': res}


def ok_wcet(r):
    return r.get('wcet') is not None and 'error' not in r


def ok_sim(r):
    return r.get('cycles') is not None and 'error' not in r


def summarise(rows):
    lines = []
    by = collections.defaultdict(list)
    for row in rows:
        by[(row['set'], row['arch'])].append(row)
    sass_ref = {}
    for row in rows:
        if row['set'] == 'sass':
            sass_ref[(row['arch'], row['file'].rsplit('.', 1)[0], row['function'])] = row
    lines.append('| set | arch | functions | bounded | simulated | observed ≤ bound '
                 '(checked) | block runs ≤ bound (checked) | launch runs ≤ bound (checked) | '
                 'same bound as listing | '
                 'slowest (s) | over 2 s |')
    lines.append('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for (kind, arch), group in sorted(by.items()):
        n = len(group)
        bounded = sum(ok_wcet(g['results'].get('wcet', {})) for g in group)
        sim = sum(ok_sim(g['results'].get('sim', {})) for g in group) if kind != 'dump' else None
        obs_checked = [g['results']['obs'] for g in group
                       if 'obs' in g['results'] and g['results']['obs'].get('holds') is not None]
        obs_ok = sum(1 for o in obs_checked if o['holds'])
        blk_checked = [g['results']['block'] for g in group
                       if 'block' in g['results']
                       and g['results']['block'].get('holds') is not None]
        blk_ok = sum(1 for o in blk_checked if o['holds'])
        lau_checked = [g['results']['launch'] for g in group
                       if 'launch' in g['results']
                       and g['results']['launch'].get('holds') is not None]
        lau_ok = sum(1 for o in lau_checked if o['holds'])
        same = ''
        if kind == 'dump':
            match = total = 0
            for g in group:
                ref = sass_ref.get((arch, g['file'].rsplit('.', 1)[0], g['function']))
                if ref is None:
                    continue
                total += 1
                a = g['results']['wcet'].get('wcet')
                b = ref['results']['wcet'].get('wcet')
                match += a == b
            same = f'{match} of {total}'
        secs = [r.get('secs', 0) for g in group for r in g['results'].values()]
        slow = sum(1 for s in secs if s > SLOW_S)
        pct = lambda k: f'{k} ({100 * k / n:.0f} %)' if n else '0'
        lines.append(
            f'| {kind} | {arch} | {n} | {pct(bounded)} | '
            f'{pct(sim) if sim is not None else ""} | '
            f'{f"{obs_ok} of {len(obs_checked)}" if obs_checked else ""} | '
            f'{f"{blk_ok} of {len(blk_checked)}" if blk_checked else ""} | '
            f'{f"{lau_ok} of {len(lau_checked)}" if lau_checked else ""} | {same} | '
            f'{max(secs) if secs else 0:.1f} | {slow} |')
    return '\n'.join(lines)


def failures(rows):
    groups = collections.defaultdict(list)
    for row in rows:
        for label, r in row['results'].items():
            if 'error' in r:
                msg = re.sub(r'0x[0-9a-f]+', '0x…', r['error'])
                msg = re.sub(r'(?<![A-Z0-9])\d+(?![A-Z])', 'N', msg)[:140]
                groups[(row['set'], label, msg)].append(f"{row['arch']} {row['function']}")
            elif r.get('holds') is False:
                groups[(row['set'], label, 'VIOLATION observed > bound')].append(
                    f"{row['arch']} {row['function']} {r.get('cycles')} > {r.get('bound')}")
    lines = ['', '## Failures by message', '']
    for (kind, label, msg), who in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines.append(f'- {kind}/{label} ×{len(who)}: {msg} — e.g. {", ".join(who[:3])}')
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--bin', default=default_bin())
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--only', default='sass,dump,ptx,gcn')
    ap.add_argument('--archs', default='')
    ap.add_argument('--filter', default='')
    ap.add_argument('--checks', default='',
                    help='only these checks (wcet,sim,obs,block,launch,rr), comma-separated')
    ap.add_argument('--json')
    a = ap.parse_args()
    jobs = dedupe(jobs_for(a.dir, a.only.split(','), [x for x in a.archs.split(',') if x],
                           a.filter))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        labels = [x for x in a.checks.split(',') if x]
        futs = [pool.submit(work, a.bin, a.timeout, labels, j) for j in jobs]
        for i, f in enumerate(concurrent.futures.as_completed(futs)):
            rows.append(f.result())
            if (i + 1) % 50 == 0:
                print(f'{i + 1}/{len(jobs)}', file=sys.stderr)
    rows.sort(key=lambda r: (r['set'], r['arch'], r['file'], r['function']))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(rows, f, indent=1)
    print(summarise(rows))
    print(failures(rows))


if __name__ == '__main__':
    main()
