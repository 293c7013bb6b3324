#!/usr/bin/env python3
"""Share of loops whose bound is inferred from the code (issue #38), per dialect and arch.

  loop-bounds-table.py [--bin PATH] [--jobs 2] [--timeout 60] [--set KEY=VALUE]...
                       [--reasons N] SET=DIR [SET=DIR ...]

Each SET=DIR names a directory of listings; the dialect comes from the extension (`.sass`,
`.ptx`, `.s` GCN3). Every function of every listing is analysed once with the automatic
launch (`params` empty: integers 64, pointers 1 MiB apart; grid 1, block 32):

  SASS, PTX   warp-cfg --set max_states=1   the loop table (`loop_bounds`) comes from the
                                            inference, which runs before the warp-level CFG
                                            (stopped at once: only the table is read)
  GCN3        pws --set max_unrolled_nodes=1   likewise, before the loops are unrolled

A loop counts as inferred when its row has `inferred` (the code bounds it for this launch:
a counter and its exit, or "not entered for this launch"); the last column leaves out the
loops the launch does not enter (remainder loops of unrolled code when n is a multiple of
the unrolling, …). Output: a markdown table of the sets, then the reasons the other loops
got no bound, grouped.

Example (the tables of docs/loop-bounds.md):

  scripts/loop-bounds-table.py \\
    corpus/sass=../shared/corpus/sass corpus/sm_61=../shared/corpus/sass-modern/sm_61 ...

Dependency-free Python 3.11.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess

FUNCS = {
    'sass': re.compile(r'^\s*Function : (\S+)\s*$', re.M),
    'ptx': re.compile(r'^\s*\.(?:visible\s+|weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)', re.M),
    'gcn': re.compile(r'^\s*\.amdhsa_kernel\s+(\S+)', re.M),
}
EXT = {'.sass': 'sass', '.ptx': 'ptx', '.s': 'gcn'}


def default_bin():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), 'target', 'release', 'warpbound')


def functions(path, dialect):
    with open(path, errors='replace') as f:
        text = f.read()
    found = []
    for m in FUNCS[dialect].finditer(text):
        if m.group(1) not in found:
            found.append(m.group(1))
    return found or [None]


def run(binary, path, dialect, function, sets, timeout):
    mode, stop = ('pws', 'max_unrolled_nodes=1') if dialect == 'gcn' else ('warp-cfg', 'max_states=1')
    cmd = [binary, 'analyze', path, '--dialect', dialect, '--mode', mode, '--no-timings',
           '--set', stop]
    if function:
        cmd += ['--function', function]
    for s in sets:
        cmd += ['--set', s]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return json.loads(p.stdout).get('loop_bounds', [])
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return None


def gist(reason):
    """The kind of loop a no-bound reason describes."""
    r = reason or ''
    if 'no register changes by a known step' in r:
        return 'no counter: every register the loop writes changes by an unknown amount on some path (data loops, loops through calls, unmodelled updates)'
    if 'not compared with a limit on every iteration' in r:
        return 'counters exist but the loop exits on data only (or the exit is not on every path)'
    if 'the limit is not known' in r or 'the limit may lie' in r:
        return 'the limit is not known for the launch (loaded from memory, computed by an unmodelled instruction)'
    if 'the distance is not known' in r:
        return 'the distance from the start to the limit is not known for the launch'
    if 'the start' in r and ('not known' in r or 'either side' in r or 'either sign' in r):
        return 'the start is not known for the launch'
    if '≠' in r:
        return 'a ≠ exit whose distance is not a known multiple of the step for every thread'
    if 'step' in r:
        return 'the step is not known or may be zero / change sign'
    if 'wrap' in r:
        return 'the counter could wrap around before its limit'
    if 'moves away' in r:
        return 'the counter moves away from its limit'
    return re.sub(r'[%$]?\b[A-Za-z]*\d+\b', 'N', r)[:120]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sets', nargs='+')
    ap.add_argument('--bin', default=default_bin())
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--set', action='append', default=[])
    ap.add_argument('--reasons', type=int, default=8)
    a = ap.parse_args()
    jobs = []
    for spec in a.sets:
        name, d = spec.split('=', 1)
        for fn in sorted(os.listdir(d)):
            dialect = EXT.get(os.path.splitext(fn)[1])
            if not dialect:
                continue
            p = os.path.join(d, fn)
            for f in functions(p, dialect):
                jobs.append((name, p, dialect, f))
    results = collections.defaultdict(list)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futs = {pool.submit(run, a.bin, p, dl, f, a.set, a.timeout): (name, f)
                for (name, p, dl, f) in jobs}
        for fut in concurrent.futures.as_completed(futs):
            name, _ = futs[fut]
            results[name].append(fut.result())
    print('| set | functions | with loops | loops | inferred | of which not entered | share '
          '| share of entered loops |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    reasons = collections.Counter()
    for spec in a.sets:
        name = spec.split('=', 1)[0]
        rows = results[name]
        fns = len(rows)
        loops = [l for r in rows if r for l in r]
        with_loops = sum(1 for r in rows if r)
        inferred = [l for l in loops if l.get('inferred') is not None]
        entered = sum(1 for l in inferred if 'not entered' in (l.get('reason') or ''))
        share = f'{100 * len(inferred) / len(loops):.0f} %' if loops else '–'
        rest = len(loops) - entered
        share2 = f'{100 * (len(inferred) - entered) / rest:.0f} %' if rest else '–'
        failed = sum(1 for r in rows if r is None)
        note = f' ({failed} failed)' if failed else ''
        print(f'| {name} | {fns}{note} | {with_loops} | {len(loops)} | {len(inferred)} | '
              f'{entered} | {share} | {share2} |')
        for l in loops:
            if l.get('inferred') is None:
                reasons[gist(l.get('reason'))] += 1
    print()
    print('| loops without an inferred bound | count |')
    print('|---|---:|')
    for r, n in reasons.most_common(a.reasons):
        print(f'| {r} | {n} |')


if __name__ == '__main__':
    main()
