// Kernels written for Warpbound to show the situations the analyses care about (the paper's
// figures, re-created; real compiler output lives in the shared corpus).

/** Huangfu §4.4.4's example kernel, written in PTX for Warpbound (two examples use it; the
 * Rust tests read the same file). */
import HUANGFU_4_4_4 from '../examples/huangfu-4-4-4.ptx';

/** Papers the examples are grouped under, in gallery order. */
export const PAPERS = [
  {
    id: 'jeanmougin',
    title: 'Warp-level CFG construction (Jeanmougin, Carle, Sotin, Rochange, WCET 2023)',
  },
  {
    id: 'berezovskyi',
    title: 'Makespan of warps on one SM (Berezovskyi, Bletsas, Andersson, ECRTS 2012)',
  },
  { id: 'huangfu', title: 'PTX analyzer and round-robin timing model (Huangfu, PhD thesis 2017)' },
  { id: 'klashtorny', title: 'Predictable wavefront splitting on AMD GCN3 (Klashtorny et al.)' },
  { id: 'spliet', title: 'Sim-D: phase-based WCET on a predictable SIMD accelerator (Spliet & Mullins)' },
  { id: 'simulator', title: 'The simulator: an execution behind every bound' },
  { id: 'basics', title: 'Basics: thread-level control flow' },
];


export const EXAMPLES = [
  {
    id: 'fig1-if-then-else',
    paper: 'jeanmougin',
    blurb:
      'A warp is one instruction stream for 32 threads. When they disagree on a branch, the hardware runs the taken side first while the others wait on the SIMT stack; the dashed divergence edges are paths that exist only because of that. Swap SR_TID.X for SR_CTAID.X and watch them vanish: every thread of a block agrees on its block index. The Stepper tab replays one warp instruction by instruction: which lanes are active and what the stack holds.',
    title: 'Fig. 1 — if-then-else on the thread index (SSY/SYNC)',
    dialect: 'sass',
    mode: 'warp-cfg',
    params: { simulate: true, memory: 'out@0x0 32 const 0' },
    source: `// Jeanmougin et al., Fig. 1: threads with tid >= 16 take the branch; the others
// wait on the stack (dashed divergence edges) until the taken side reaches SYNC.
// Change SR_TID.X to SR_CTAID.X: the condition becomes uniform, the dashed edges go.
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0010*/ SSY 0x40 ;
/*0018*/ @P0 BRA 0x30 ;
/*0020*/ IADD R1, R0, 0x1 ;
/*0028*/ SYNC ;
/*0030*/ IADD R1, R0, -0x1 ;
/*0038*/ SYNC ;
/*0040*/ ST [R2], R1 ;
/*0048*/ EXIT ;
`,
  },
  {
    id: 'fig2-late-reconvergence',
    paper: 'jeanmougin',
    blurb:
      "Threads only reconverge where the compiler put an SSY/SYNC pair, not where the source code's branches join. Here the inner branch has no reconvergence point of its own, so the join block W runs once per side under divergence; the worst-case path shows it twice. Analyses that assume reconvergence at the first post-dominator under-estimate this.",
    title: 'Fig. 2 — reconvergence not at the first post-dominator',
    dialect: 'sass',
    mode: 'warp-cfg',
    source: `// Jeanmougin et al., Fig. 2: the inner if (P1) has no SSY of its own, so its two
// sides only reconverge at the outer SYNC point (0x68), not where they join (0x48):
// block W at 0x48 may run twice. A method that assumes reconvergence at the first
// post-dominator would miss that.
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0010*/ ISETP.GE.AND P1, PT, R0, 0x8, PT ;
/*0018*/ SSY 0x68 ;
/*0020*/ @P0 BRA 0x58 ;
/*0028*/ @P1 BRA 0x40 ;
/*0030*/ IADD R1, R1, 0x1 ;      // X
/*0038*/ BRA 0x48 ;
/*0040*/ IADD R1, R1, 0x2 ;      // Y
/*0048*/ IADD R2, R2, R1 ;       // W: where X and Y join
/*0050*/ SYNC ;
/*0058*/ IADD R2, R2, 0x3 ;      // Z
/*0060*/ SYNC ;
/*0068*/ ST [R4], R2 ;
/*0070*/ EXIT ;
`,
  },
  {
    id: 'fig3-tiled-matmul',
    paper: 'jeanmougin',
    blurb:
      'Loops whose counters every thread agrees on never diverge, even inside a divergent kernel: the agreement analysis proves the tile and inner loops uniform. Only the final bounds check can split the warp. Edit the loop bounds in the Summary view and see the bound scale with them.',
    title: 'Fig. 3 — tiled matrix multiply (uniform loops, divergent bounds check)',
    dialect: 'sass',
    mode: 'warp-cfg',
    loopBounds: { '0x0040': 4, '0x0090': 16 },
    source: `// Jeanmougin et al., Fig. 3: C = A·B with 16x16 tiles in shared memory. Both loops
// count with values every thread agrees on (RZ, constants), so they never diverge;
// only the final bounds check (row < n && col < n) does. Loop bounds: 4 tiles, 16 steps.
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ S2R R1, SR_TID.Y ;
/*0010*/ S2R R2, SR_CTAID.X ;
/*0018*/ S2R R3, SR_CTAID.Y ;
/*0020*/ ISCADD R4, R3, R1, 0x4 ;                 // row
/*0028*/ ISCADD R5, R2, R0, 0x4 ;                 // col
/*0030*/ MOV R6, RZ ;                             // sum
/*0038*/ MOV R7, RZ ;                             // tile
/*0040*/ ISCADD R8, R7, R0, 0x4 ;                 // tile loop: load A and B tiles
/*0048*/ IMAD R9, R4, c[0x0][0x150], R8 ;
/*0050*/ ISCADD R9, R9, c[0x0][0x140], 0x2 ;
/*0058*/ LD.E R10, [R9] ;
/*0060*/ ISCADD R11, R1, R0, 0x4 ;
/*0068*/ SHL R11, R11, 0x2 ;
/*0070*/ STS [R11], R10 ;
/*0078*/ STS [R11+0x400], R10 ;
/*0080*/ BAR.SYNC 0x0 ;
/*0088*/ MOV R12, RZ ;                            // k
/*0090*/ LDS R13, [R11] ;                         // inner loop
/*0098*/ LDS R14, [R11+0x400] ;
/*00a0*/ FFMA R6, R13, R14, R6 ;
/*00a8*/ IADD R12, R12, 0x1 ;
/*00b0*/ ISETP.LT.AND P0, PT, R12, 0x10, PT ;
/*00b8*/ @P0 BRA 0x90 ;
/*00c0*/ BAR.SYNC 0x0 ;
/*00c8*/ IADD R7, R7, 0x1 ;
/*00d0*/ ISETP.LT.AND P1, PT, R7, c[0x0][0x154], PT ;
/*00d8*/ @P1 BRA 0x40 ;
/*00e0*/ ISETP.LT.AND P2, PT, R4, c[0x0][0x150], PT ;
/*00e8*/ ISETP.LT.AND P2, PT, R5, c[0x0][0x150], P2 ;
/*00f0*/ @!P2 EXIT ;
/*00f8*/ IMAD R15, R4, c[0x0][0x150], R5 ;
/*0100*/ ISCADD R15, R15, c[0x0][0x148], 0x2 ;
/*0108*/ ST.E [R15], R6 ;
/*0110*/ EXIT ;
`,
  },
  {
    id: 'loop-break',
    paper: 'jeanmougin',
    blurb:
      'Each thread leaves the loop when its own counter passes its limit. BRK parks the leaving threads at the PBK target while the rest iterate; when the last thread breaks, the warp reconverges. The divergence edge is the iteration after some, but not all, threads have left.',
    title: 'Loop with a data-dependent break (PBK/BRK)',
    dialect: 'sass',
    mode: 'warp-cfg',
    source: `// Each thread counts until its own limit; BRK leaves to the PBK target.
/*0000*/ S2R R1, SR_TID.X ;
/*0008*/ MOV R0, RZ ;
/*0010*/ PBK 0x40 ;
/*0018*/ IADD R0, R0, 0x1 ;
/*0020*/ ISETP.GT.AND P0, PT, R0, R1, PT ;
/*0028*/ @P0 BRK ;
/*0030*/ BRA 0x18 ;
/*0038*/ NOP ;
/*0040*/ ST [R2], R0 ;
/*0048*/ EXIT ;
`,
  },
  {
    id: 'subroutine',
    paper: 'jeanmougin',
    blurb:
      "CAL pushes a return point onto the same stack as SSY and PBK, and RET unwinds to it. The analysis therefore follows each call site separately, so the subroutine's block appears once per call in the warp-level CFG.",
    title: 'Subroutine called from two sites (CAL/RET, labels)',
    dialect: 'sass',
    mode: 'warp-cfg',
    source: `// Address comments are optional: these instructions are placed 8 bytes apart.
// The warp-level CFG analyses the subroutine once per call site.
        S2R R1, SR_TID.X ;
        CAL square ;
        IADD R3, R2, 0x1 ;
        CAL square ;
        ST [R4], R2 ;
        EXIT ;
square:
        IMUL R2, R1, R1 ;
        RET ;
`,
  },
  {
    id: 'thread-cfg',
    paper: 'basics',
    blurb:
      'The basic-block graph of a single thread: where control can go when you ignore the other 31. Compare it with the warp-level CFG of the same kernel (Fig. 1) to see what divergence adds.',
    title: 'Thread-level CFG of the if-then-else (cfg mode)',
    dialect: 'sass',
    mode: 'cfg',
    source: `// The basic-block graph of one thread: no divergence, SYNC edges to the SSY target.
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0010*/ SSY 0x40 ;
/*0018*/ @P0 BRA 0x30 ;
/*0020*/ IADD R1, R0, 0x1 ;
/*0028*/ SYNC ;
/*0030*/ IADD R1, R0, -0x1 ;
/*0038*/ SYNC ;
/*0040*/ ST [R2], R1 ;
/*0048*/ EXIT ;
`,
  },
  {
    id: 'makespan-fig2',
    paper: 'berezovskyi',
    blurb:
      "Four warps share one load/store lane and one CUDA-core lane. While every warp waits for an L, the core lane idles: that lost overlap is what makes the worst case worse than the work divided by the units. The Schedule view shows a worst work-conserving schedule.",
    title: 'Fig. 2 — four warps on "LLC" (σL = σC = 1)',
    dialect: 'lc',
    mode: 'makespan',
    source: `# Berezovskyi et al., Fig. 2: 4 warps of 32 threads, string "LLC",
# one warp per cycle on each unit type (sigma_L = sigma_C = 1).
kernel LLC
warp_number 4
ls_unit_number 32
cuda_core_number 32
warp_size 32
`,
  },
  {
    id: 'makespan-fig6',
    paper: 'berezovskyi',
    blurb:
      "With 600 warps the exact search is out of reach, but the estimate T(W, x) only solves groups of at most x warps exactly and scales the worst group up. The Plots view shows it converging below the pessimistic bound (3000 cycles) as x grows.",
    title: 'Fig. 6 — 600 warps on "LLCLL": the estimate converges',
    dialect: 'lc',
    mode: 'makespan',
    params: { exact: false, estimate_x: 8 },
    source: `# Berezovskyi et al., Fig. 6: W = 600, "LLCLL", sigma_L = sigma_C = 1.
kernel LLCLL
warp_number 600
ls_unit_number 32
cuda_core_number 32
warp_size 32
`,
  },
  {
    id: 'makespan-fig7',
    paper: 'berezovskyi',
    blurb:
      "On compute capability 2.0 only 16 load/store units serve a 32-thread warp, so every L becomes two half-warp instructions: \"LCLCL\" turns into \"LLCLLCLL\". The sigma transformation keeps the model at one warp per unit per cycle.",
    title: 'Fig. 7 — 420 warps on "LCLCL", Fermi cc 2.0 (σL = 1/2)',
    dialect: 'lc',
    mode: 'makespan',
    params: { exact: false, estimate_x: 8 },
    source: `# Berezovskyi et al., Fig. 7: W = 420, "LCLCL" on cc 2.0
# (16 load/store units, 32 cores, warps of 32: sigma_L = 1/2, sigma_C = 1).
kernel LCLCL
warp_number 420
ls_unit_number 16
cuda_core_number 32
warp_size 32
`,
  },
  {
    id: 'simd-phases',
    paper: 'spliet',
    blurb:
      'Sim-D never overlaps a work-group\'s own loads with its arithmetic: each ldglin/stglin is an access phase, the code between them a compute phase. Two work-group slots take turns, so one computes while the other waits for DRAM. The Schedule view shows the two slots interleaving; the Summary gives both scheduling policies and the bounds WCET^U and WCET^L.',
    title: 'Compute and access phases of d = a·b + c',
    dialect: 'simd',
    mode: 'simd',
    params: { ndrange: '1024,32' },
    source: `// Written for Warpbound: d = a * b + c, element-wise, one 1024-item tile per work-group.
.data
	0 0x0 1024 32
	1 0x20000 1024 32
	2 0x40000 1024 32
	3 0x60000 1024 32

.text
	ldglin v1, 0
	ldglin v2, 1
	mul v1, v1, v2
	ldglin v3, 2
	add v1, v1, v3
	stglin v1, 3
	exit
`,
  },
  {
    id: 'simd-loop',
    paper: 'spliet',
    blurb:
      'Loops are unrolled into a DAG before the critical path is taken, so every branch needs a bound: #bound branchcycle T N P says the branch is taken T times, then not taken N times. Make it sixteen rounds (15 in the annotation, 16 in the sisub) and the compute phase between the load and the store grows from 164 to 324 cycles.',
    title: 'A bounded loop between two access phases',
    dialect: 'simd',
    mode: 'simd',
    params: { ndrange: '1024,32' },
    source: `// Written for Warpbound: square a tile eight times, then store it.
.data
	0 0x0 1024 32
	1 0x20000 1024 32

.text
	ldglin v1, 0
	smov s1, 0
loop:
	mul v1, v1, v1
	siadd s1, s1, 1
	sisub s2, s1, 8
	#bound branchcycle 7 1 0
	sicj.l loop, s2
	stglin v1, 1
	exit
`,
  },
  {
    id: 'pws-fig2',
    paper: 'klashtorny',
    blurb:
      'The kernel of the paper\'s Figure 2b (BB1 … BB10: an if-else with a nested if-else, then a second if-else on A[idx]), written for Warpbound as the exec-mask code HIP emits for GCN3. Each if-else gets a branch serialization block (dashed orange) where exec flips to the else-path. Block costs come from the gem5 GCN3 latency table (the per-block WCETs of Figure 2a are not reproduced here). Without splitting every block runs one after the other, so the wavefront WCET is the sum of all block WCETs (§2); DWS must assume every branch splits and gains nothing (Figure 2e, here it loses the split and merge costs); PWS with the optimal split points is faster. Click branches to mark your own split points. The simulator runs the four work-items on the paper\'s A = {17, 29, 52, 80}: each adds the numbers of the blocks it passes, so out = {22, 27, 26, 25} in the Summary, and the Stepper shows the exec mask of each path.',
    title: 'Figure 2 — nested and sequential branches',
    dialect: 'gcn',
    mode: 'pws',
    params: {
      split: 'optimal',
      S: 2,
      simulate: true,
      block: '4,1,1',
      params: '0x1000,0,0x2000,0',
      memory: 'A@0x1000 4 words 17 29 52 80; out@0x2000 4 const 0',
    },
    source: `; Figure 2b of Klashtorny et al., written for Warpbound as HIP-style GCN3 code.
; A = {17, 29, 52, 80}, one work-item per element: idx = v0, A at kernarg 0, out at 8.
fig2:
; BB1: a = A[idx]; if (a > 25)
  s_load_dwordx4 s[0:3], s[4:5], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v2, s1
  v_add_u32_e32 v1, vcc, s0, v1
  v_addc_u32_e32 v2, vcc, 0, v2, vcc
  flat_load_dword v3, v[1:2]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32_e32 v4, 0
  v_cmp_lt_i32_e32 vcc, 25, v3
  s_and_saveexec_b64 s[6:7], vcc
  s_xor_b64 s[6:7], exec, s[6:7]
  s_cbranch_execz BB0_6
; BB2: if (a > 75)
  v_add_u32_e32 v4, vcc, 2, v4
  v_cmp_lt_i32_e32 vcc, 75, v3
  s_and_saveexec_b64 s[8:9], vcc
  s_xor_b64 s[8:9], exec, s[8:9]
  s_cbranch_execz BB0_3
; BB3
  v_add_u32_e32 v4, vcc, 3, v4
BB0_3:                                  ; BSB of the inner if-else
  s_or_saveexec_b64 s[8:9], s[8:9]
  s_xor_b64 exec, exec, s[8:9]
  s_cbranch_execz BB0_5
; BB4
  v_add_u32_e32 v4, vcc, 4, v4
BB0_5:                                  ; BB5: inner reconvergence
  s_or_b64 exec, exec, s[8:9]
  v_add_u32_e32 v4, vcc, 5, v4
BB0_6:                                  ; BSB of the outer if-else
  s_or_saveexec_b64 s[6:7], s[6:7]
  s_xor_b64 exec, exec, s[6:7]
  s_cbranch_execz BB0_8
; BB6
  v_add_u32_e32 v4, vcc, 6, v4
BB0_8:                                  ; BB7: outer reconvergence; if (a > 50)
  s_or_b64 exec, exec, s[6:7]
  v_add_u32_e32 v4, vcc, 7, v4
  v_cmp_lt_i32_e32 vcc, 50, v3
  s_and_saveexec_b64 s[6:7], vcc
  s_xor_b64 s[6:7], exec, s[6:7]
  s_cbranch_execz BB0_10
; BB8
  v_add_u32_e32 v4, vcc, 8, v4
BB0_10:                                 ; BSB of the second if-else
  s_or_saveexec_b64 s[6:7], s[6:7]
  s_xor_b64 exec, exec, s[6:7]
  s_cbranch_execz BB0_12
; BB9
  v_add_u32_e32 v4, vcc, 9, v4
BB0_12:                                 ; BB10: reconvergence; out[idx] = path sum
  s_or_b64 exec, exec, s[6:7]
  v_mov_b32_e32 v2, s3
  v_lshlrev_b32_e32 v1, 2, v0
  v_add_u32_e32 v1, vcc, s2, v1
  v_addc_u32_e32 v2, vcc, 0, v2, vcc
  flat_store_dword v[1:2], v4
  s_endpgm
`,
  },
  {
    id: 'pws-if-else',
    paper: 'klashtorny',
    blurb:
      'On GCN3 a divergent if-else runs both paths one after the other: the exec mask is narrowed for the then-path, flipped in the branch serialization block (BSB, dashed orange) for the else-path, and restored at the reconvergence node. The split instruction asks for the two paths to run on two SIMD units at once; Prune then drops the serialised edge (dotted red). Compare the three kernel WCETs in the Summary.',
    title: 'An if-else split across two SIMD units',
    dialect: 'gcn',
    mode: 'pws',
    params: { split: 'marked', cost: 'unit' },
    preset: 'fig8-example',
    source: `; Written for Warpbound: an if-else on the work-item id, marked for splitting.
k:
  v_cmp_gt_u32_e32 vcc, 32, v0       ; work-items 0..31 take the then-path
  s_mov_b64 s[0:1], vcc               ; the split mask: the then-path's work-items
  split s0, s1
  s_and_saveexec_b64 s[4:5], vcc
  s_xor_b64 s[4:5], exec, s[4:5]
  s_cbranch_execz BB0_2
; %bb.1:                              ; then: six multiply-adds
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
  v_mad_f32 v1, v1, v2, v3
BB0_2:                                ; the BSB: flip exec to the else-path
  s_or_saveexec_b64 s[4:5], s[4:5]
  s_xor_b64 exec, exec, s[4:5]
  s_cbranch_execz BB0_4
; %bb.3:                              ; else: eight multiplies
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
  v_mul_f32_e32 v1, v1, v2
BB0_4:                                ; reconvergence: restore exec
  s_or_b64 exec, exec, s[4:5]
  merge
  s_endpgm
`,
  },
  {
    id: 'pws-three-branches',
    paper: 'klashtorny',
    blurb:
      'A wavefront CFG in the CSV format of the split-point solver published with the paper (wcet, is_bsb_node, is_reconv_node, successors): two if-elses in sequence, the second with a nested if-else. All three branches are marked, but with S = 1 only one split may be active at a time: the nested split would need a second context, so Select (Alg. 1) drops it, while the two splits in sequence reuse one context. The Summary sets the marks, Select and the optimal set side by side; click branches to change the marks.',
    title: 'Choosing split points: two branches in sequence, one nested',
    dialect: 'pws-csv',
    mode: 'pws',
    params: { split: 'marked', S: 1, marks: '0,4,5' },
    source: `wcet,is_bsb_node,is_reconv_node,successors
2,False,False,1;2
6,False,False,2
0,True,False,3;4
4,False,False,4
1,False,True,5;10
3,False,False,6;7
5,False,False,7
0,True,False,8;9
2,False,False,9
1,False,True,10
0,True,False,11;12
7,False,False,12
1,False,True,
`,
  },
  {
    id: 'rr-4-4-4',
    paper: 'huangfu',
    blurb:
      'The analyzer runs every warp of the launch through the kernel with real register values, so it knows each global address. With <<<dim3(1,2,1), dim3(16,4,1)>>> the two warps of block y = 0 load and the two of block y = 1 store; the Summary lists the 128-byte segments each warp touches (§4.4.4: loads at 0, 128, 256, 384; stores at 2048 … 2432).',
    title: '§4.4.4 — addresses of every warp, from the launch',
    dialect: 'ptx',
    mode: 'rr',
    params: { grid: '1,2,1', block: '16,4,1', params: '0' },
    source: `// The example kernel of Huangfu §4.4.4, written in PTX for Warpbound.
${HUANGFU_4_4_4}`,
  },
  {
    id: 'rr-fig24',
    paper: 'huangfu',
    blurb:
      'The round-robin model charges each code segment an issue latency LI and an execution latency LE. With 16 active warps and a pipeline that holds 8, an add costs LI = 2 and LE = 13; a global load with 8 transactions and 6 competing SMs costs LI_inst = 56 and LE_inst = 480 (Fig. 24). Here those estimates are overridden, so the result is a what-if estimate, not a bound; clear the three overrides to get the analyzer\'s own values.',
    title: 'Fig. 24 — LI and LE of code segments',
    dialect: 'ptx',
    mode: 'rr',
    params: { grid: '1,2,1', block: '16,4,1', params: '0', n_coal: 8, competing_sms: 6, active_warps: 16, segmentation: 'per-instruction' },
    source: `// The example kernel of Huangfu §4.4.4 again, with Fig. 24's estimates set by hand.
${HUANGFU_4_4_4}`,
  },
  {
    id: 'sim-ptx-divergence',
    paper: 'simulator',
    blurb:
      'PTX has no reconvergence instructions: the simulator pushes the immediate post-dominator of a divergent branch as the point where the lanes meet again (the PDOM stack). Here the odd threads take the extra add, the even ones skip it, and all meet at DONE: the Stepper shows the stack entry with its mask. The Summary lists out[i] = 3·in[i] + 1, plus 100 for odd i.',
    title: 'PTX: post-dominator reconvergence, step by step',
    dialect: 'ptx',
    mode: 'simulate',
    params: {
      block: '8',
      params: '0x1000,0,0x2000,0',
      memory: 'in@0x1000 8 iota 0 1; out@0x2000 8 const 0',
    },
    source: `// Written for Warpbound: out[i] = 3 in[i] + 1, plus 100 for odd i.
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .u32 %r<8>;
  .reg .u64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  mad.lo.u32 %r3, %r2, 3, 1;
  and.b32 %r4, %r1, 1;
  setp.eq.u32 %p1, %r4, 0;
  @%p1 bra DONE;
  add.u32 %r3, %r3, 100;
DONE:
  st.global.u32 [%rd5], %r3;
  ret;
}
`,
  },
  {
    id: 'sim-vector-add',
    paper: 'simulator',
    blurb:
      'A bound says how long any execution can take; the simulator shows one. Two blocks of 64 threads add two arrays of 100 numbers, so the last warp has only 4 threads with work: at @P0 EXIT its other 28 lanes leave, and the Stepper (warp 3) shows the active mask shrink. The Summary lists the final memory: c[i] = a[i] + b[i] = 100 + 3i.',
    title: 'Simulate a vector add, step through the divergent exit',
    dialect: 'sass',
    mode: 'simulate',
    preset: 'gpgpusim-like',
    params: {
      grid: '2',
      block: '64',
      params: '0x1000,0,0x2000,0,0x3000,0,100',
      memory: 'a@0x1000 100 iota 0 1; b@0x2000 100 iota 100 2; c@0x3000 100 const 0',
      warp: 3,
    },
    source: `// Written for Warpbound: c[i] = a[i] + b[i] for i < n (Maxwell/Pascal SASS).
// Parameters: a, b, c as 64-bit pointers (two words each), then n.
S2R R0, SR_CTAID.X ;
S2R R2, SR_TID.X ;
IMAD R0, R0, c[0x0][0x8], R2 ;
ISETP.GE.AND P0, PT, R0, c[0x0][0x158], PT ;
@P0 EXIT ;
SHL R6, R0, 0x2 ;
SHR R7, R0, 0x1e ;
IADD R2.CC, R6, c[0x0][0x140] ;
IADD.X R3, R7, c[0x0][0x144] ;
IADD R4.CC, R6, c[0x0][0x148] ;
IADD.X R5, R7, c[0x0][0x14c] ;
LDG.E R2, [R2] ;
LDG.E R4, [R4] ;
IADD R8.CC, R6, c[0x0][0x150] ;
IADD.X R9, R7, c[0x0][0x154] ;
IADD R2, R2, R4 ;
STG.E [R8], R2 ;
EXIT ;
`,
  },
];
